in_x= "a b${   ( 	 "" 	 )  -( [	 ])}${~ 	 path.instance_type [ "k" ]["_under"] }${~ data.*.instance_type }"
nameé=tolist( 
  concat({for v in  range(3) : null=> length(null , false, 007 ) if false },(   1e3 ) ?  (null ) :( 007)  ,{for	v  in  [1, 2] :"\nünï x "=>concat()}... )	
  )
count  =( (	"\U0001F600") ) /* c0 */ <=(  true)
name = each [each.key ] # longer trailing comment
	nameé96 	 =true
	b=[{ 	 "x.y"=data ?( false): "a$b",x1= ! ( null)} ]	/* trailing */
long_attribute_name23  =  "%{  for k, v in "${(path.0 ) ~}"  }${v}%{~endfor~}"
# comment
instance_type=path["b"]!=( 	 [ max( /* c6 */ null ,null, false      ),( null) ,path.instance_type [ 1 ] , [false , true,false   ,2.5E-2, ]		] )
