depends_on =	( false)==   ""
content 	 { 	 
  a= "${ var }"
}
  for_each = "${ var.for_each[ 0 ].instance_type }"
  tags={ for k, v	in  [1, 2]: ( count.ami	)=>( "a b%{for k, v in "" }${v}%{~endfor }tab\there" )... if count["name"] [each.key   ].long_attribute_name }
/* block */
name= 	 length("" -([null,42 ,  false ,	true	] )   )
