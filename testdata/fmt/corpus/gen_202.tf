   name ="[">=( - (  true )   )
my-dashed = 1 ? ( ! "" ) :(	(true)&&1)
long_attribute_name= true
   in_x = -"${~ (1e3 )?  "//no" 	 :each.depends_on~}%{ if (format() )  }x%{~endif }$${not}"
	a66 = "[${~(aws_instance.nameé[  "k"] )}tab\there" ? (null ) : (data["nameé"] ? 	 ( false ) : 	 length() )
   b=  (   (null  ) ||( 100 /* c7 */ )) -   ( {  for_each = concat( 
    ), value ="", (var.1.value.tags)=max( 
    )   } 	 )
	count =( "${ self.1["name"]}"   ) *coalesce()
