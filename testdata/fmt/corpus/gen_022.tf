  long_attribute_name=jsonencode( 	 
 false  
)	# trailing
for_each = {   }
depends_on=aws_instance 	 ?	((null	)) :( null   )
  b= { (each)   = true,   value = aws_instance["name"].*.b,"quoted" 	 = self.in_x.long_attribute_name[1] }
in_x= <<-END
  END
dynamic  "my label"{   
	name = { }
  nested {   
é_accent =[   {x1 : (	true )   <true,b= 	 max( ), é_accent= "//no" || count.depends_on.x1, "with space"  :"${	self[*].for_each.long_attribute_name }" }  ]
	name = 2.5E-2 >( (false )+( true) )
	nested "web" "my label"  /* hdr */  {
   a=merge( var["value"] !=local[   0 	 ][ count.index  ].in_x   ,lookup(	) ? module.a[*].instance_type["é_accent"] /* c4 */ : ( /* c5 */ tolist(false, false,
	007) ) 	 
    ) // trailing
      # comment
	in_x   =data[*].name
    }
	value11   =local.nameé [each.key ]>=false
    }
   instance_type =1e3< (self)
  a  =[
var.tags[ 1 ].instance_type	
]
}
a=true
