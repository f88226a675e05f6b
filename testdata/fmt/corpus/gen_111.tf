_under= "${module }"
long_attribute_name=false *  ("a$b\u00e9$x${ ( true)~}" 	 )
for_each73= self




