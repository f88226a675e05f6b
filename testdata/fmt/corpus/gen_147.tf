provider "" { long_attribute_name=var.name.long_attribute_name>= 	 module  }
tags={for k, v in {a = 1} : ""? " x " : 	 ("${aws_instance.ami 	 }" 	 ) =>( /* c7 */ [for	i ,v	in range(3) :1e3])... }
value= "${ ( [
	length()	, // item
  null 

  ]) }${~false  >( "#no")~}{}${~!({in_x= false,(count.a ["k" ]) =	false } ) }"
   instance_type 	 = var.é_accent._under
   _under53 = "$x${ 	 each[*].instance_type   }"
// comment
