 in_x ="${~	( /* c5 */ false 	 )}${	([
  { for  i ,v  in {a = 1}  : null =>null } // item
  ]) }%{~  if (   local - "" ) ~}x%{endif ~}${ count	*  true	}"
	#   spaced
module	"x" 	 {	


  count	=[
  data,
]
  output aws_s3_bucket{ 	 
    long_attribute_name  ="${aws_instance.in_x 	 [count.index].tags  }"
    in_x=3.14
    instance_type   = "${ count.long_attribute_name[( null)  + length(null , 	 true   
    ) ]	}"
  }

  a= count[*]
}
tags=  [! 100, 	 "${var.depends_on["value"].ami}" ,  {   	 } ,concat() /* c8 */ ]
   ami 	 ="${~ local.long_attribute_name.long_attribute_name   ~}tab\there" ?	({ a = module.*.x1._under.12}): ( (0)?   format( false,false ... )   : 3.14)	# trailing
# comment
   my-dashed= [{ long_attribute_name  :true*	merge(  ), ami:	[var	 /* c2 */ ], count =	module.*.my-dashed.my-dashed,long_attribute_name="\u00e950% " !=  local["long_attribute_name"].* }  , tolist(), - false  ]
for_each =false



