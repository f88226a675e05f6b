 x1 ="$x{} x "<= 	 max(  
 {for k, v	in module: false =>	path... } ,("//no"
    ),
    100 ...  
  )
long_attribute_name= 100
value= (each["my-dashed"].nameé ) -(	(  jsonencode() ))
content "" /* hdr */{ 
	}
