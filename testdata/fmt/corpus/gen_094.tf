a=local.long_attribute_name

name =data.é_accent
count =  "${( 	 "${~""	}")~}tab\there%{~if "$x\n"}x%{ else }y%{endif ~}${var.long_attribute_name.value }"
my-dashed=[
  3.14 ,
	[
	null,
	- aws_instance.b.tags [ 1   ] ,  # item
    each [ count.index][*].é_accent.a ?   null :(  false ) 	 ,
"${local.b }" ,  # item
]	,

    each.*,
	- ( 	 "" 	 )
  ]
dynamic "e\u00e9"   {
  é_accent = !"${~	("${path[1 ][*].name }" 	 )  }${~"${~  ""~}%{  for k,v in false  ~}${v}%{endfor ~}${~module ~}"}${ aws_instance.for_each[ /* c6 */ 0   ]}"
   }
in_x9= "\U0001F600%{~for k,v in - (   100 ) }${v}%{  endfor}${  module}${!( "${ 	 count.count.name["b"]}" ) 	 ~}"
