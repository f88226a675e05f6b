name  = tolist( 
	null 	
 ) ?"#no":([   for k, v in	range(3):(false /* c4 */ ) if "" ] )
#   spaced

 ami= count.in_x.0


value =(
  "${~var.b  [(   true ) ]}${   - ( 007)~}")
output	bare{	
 nameé  = "%{if 3.14 ~}x%{  endif~}${( {	instance_type  :  [for k, v in  range(3):null  if false	], long_attribute_name =self, for_each	=jsonencode( false,   true) }   ) ~}${~ 	 (	{"x.y":self, "k":   concat(), long_attribute_name =[	for  k,v in  range(3)	: true]   }) ~}"
  _under93 = "${ local}hello${( var["depends_on"]) }"

  long_attribute_name 	 =local.x1.count>module
}