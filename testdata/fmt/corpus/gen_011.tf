in_x=	var.ami



 data "a-b" "my label"  { 
  in_x= 	 max( 	 "${"${ concat(   
 null) }//no"}"   ,[
true,
    merge(   false,	null, 100   ...
 ) %format( 1 ,   3.14  ... ) 
] /* c9 */ )

  resource  "x" "ünï"{ 
    nameé =[ path[*].a , data.é_accent.12,"${aws_instance ["k" ][*].depends_on.long_attribute_name? self._under: "" 	 }%{~  for k,v in ( "q\"uote")~}${v}%{~ endfor ~}"  ]
depends_on = {	 }
    count   = 	 ( {
	name  : "q\"uote" // c
	a: data[*] [   count.index   ].depends_on /* c */

  x1=null // c
"with space" : "${module}" /* c */
} ) ==("//no">  "" )
}
}
content  "e\u00e9" {	ami= count.0.b 	 ["k"]  }
