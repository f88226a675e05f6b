  lifecycle "x"{ 	 
  value   =-(   "%{if (true )  ~}x%{ endif }" )
  in_x   = { 
"quoted":{ 
	long_attribute_name   : count,

	name=!false

"x.y"  :"${local }"

},

name = (
  [ for i ,v in  data: count["tags"]	if  ( null  )] )	// c

(local._under)	:   "${count[ 1]["b"]	[ 1   ] }"
}	#
}
a =	"%{  if "${~   (local.*.nameé) ~}${~ ! (100)	}" }x%{~else~}y%{endif ~}"
