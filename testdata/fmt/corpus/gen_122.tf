  // comment
tags = concat(	true , "${   var.a }",  3.14 
 )
my-dashed = "${ module.instance_type.ami.for_each	}"
ami= 	 false # trailing
for_each= path [ module.tags ].*
