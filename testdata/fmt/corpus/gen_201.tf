long_attribute_name =module[ 1	]
   tags= "${ path }"
value = module.a.my-dashed+ module
count=self.in_x
  terraform {	
  my-dashed=	{ 
  "k"= ( null ) // c
	instance_type: { depends_on=( 42 	 )? ( 1 ) :  "", a   :[
	"${aws_instance[*].for_each.name }"	,

    {   for	i ,v in  range(3): true =>null},
  { 
	nameé= false,
    ami   =true
"quoted": true

} 
  ],   "with space"= var._under[ 	 0 ],nameé:count.my-dashed }

} # trailing
  long_attribute_name =-var["for_each"][*].tags
  locals  "my label" x-y {
    long_attribute_name = {	}
}
}
	ingress "a\"q"{ name 	 =[ ! ( each[*] 	 [  count.index  ]  ) , -self[  "k" ].1    ]	}
