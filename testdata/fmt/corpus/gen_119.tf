tags = - ( /* c5 */ [ false   , /* c7 */ "${local.tags["b"] }" , ] )


 ami = ( "${ data.é_accent.value}"	)+path
   module "a\"q" {
  name=self.depends_on.instance_type
    long_attribute_name  = 	 - ( { for	i ,v  in  range(3) :	(   007 )=> (null	)... }	) #
 a	=!count
  }
count={ 
	(each)= path[*].long_attribute_name

ami  :0, # c
}
