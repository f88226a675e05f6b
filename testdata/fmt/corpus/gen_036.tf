
instance_type= concat( aws_instance  ) # trailing
é_accent =  !jsonencode(( true)? module:null ,
coalesce( # lc
	false...)&& tolist(	0	,1,
    0   ...)...
    )
a= "//no50% a b${~count.nameé~}"
long_attribute_name=-( [for v  in self.count.1.tags  :self[each.key].name.long_attribute_name if  module   ] ) #
b =	( (007  )!=module.value [ count.index 	 ].*) *	(path["a"].12!= self[count.index] )



/* multi
   line */
