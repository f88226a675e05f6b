in_x = { depends_on  = path   }
  tags =var[*].depends_on.12?lookup( 	 ) 	 : (	[ /* c7 */ for k, v  in  {a = 1} :  path if  aws_instance ])
long_attribute_name=- (0 )
output bare{


long_attribute_name=concat()

}
value =	( path) 	 ?   ({  }   ): 	 0
  name = local.*.depends_on.in_x
