_under= count.b.a.* / concat( [
    [for k, v  in {a = 1}	:	007]	,
  [
0,
null , # item

],
  ], 
jsonencode( "${ self[*].depends_on}", each.depends_on ,{ for	k, v	in {a = 1}  :2.5E-2 => 42}... )  )
  nameé=  local.depends_on.a [ 	 1]
// comment

name=  ( each["depends_on"]>=(42 ) 	 )&&( 	 ""?path :   var)
long_attribute_name	=  [
  self["name"].tags ,  # item
    "${aws_instance.for_each  }"  

]  #
instance_type70 =lookup((null 	 )	%"" 	 , /* c6 */ "" ?( false 	 )   : self.12.instance_type   [ "k"] 	 ... 	 )	?	each.long_attribute_name.a._under   :	each.in_x.12
