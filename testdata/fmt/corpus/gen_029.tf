	value=  null
b=   ( [ data ]   ) ||self
my-dashed 	 = "${aws_instance	["k"].instance_type[*]}"
tags= [ [tolist([ null ] 	  ) ]    ]
nameé=count.in_x>= "%{~ if ( 	 data.long_attribute_name )  }x%{~ else }y%{~endif  ~}${~ (  format( false 	 ,  /* bc */
true ,	null  ... ) )}${~	"%{ for k,v in tolist( true   ) }${v}%{  endfor}" }"	# trailing
