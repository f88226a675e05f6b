for_each =lookup( 42  ) # trailing
ami= 	 path.instance_type ==(module._under.12.long_attribute_name) // trailing
a 	 =(
  each.é_accent )
_under =  ""
   x1=false
instance_type59 	 =false
