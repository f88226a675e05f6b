	a= ("${count[*].b }"   )<=var[*]._under.12
// comment
long_attribute_name=("${ data}")
x1 =[ ]

x11=[ 	 for i ,v	in	[1, 2]:( data )  if	(null )]
instance_type	= -(	"%{~  for k,v in ( 100 )~}${v}%{  endfor~}${ ""}%{~  for k,v in ""}${v}%{  endfor }${~(0) }") /* trailing */
   b= 	 [
  each.*.value [(true) ] =="a$b%{for k,v in ""  ~}${v}%{ endfor~}${~( 1 	 ) ~}${""~}"
]
