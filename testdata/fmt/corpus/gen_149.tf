   ami=   "${~   var.*.depends_on[each.key].x1 ~}%{~ for k,v in "#no%{ if (true   ) ~}x%{~else  }y%{ endif }%{~  for v in false }${v}%{  endfor  }\n"	||null }${v}%{~  endfor}%{ for k, v in ({   depends_on=	{	
"k" : 	 null,

}, my-dashed = "",	é_accent = {for	v	in	[1, 2]  :true   =>null },long_attribute_name   :"" })  ~}${v}%{~  endfor~}"
 tags = [  tolist( 
    [
  null ,
	null  ,
  ]...)/ concat(
)	, aws_instance,   ]
b70= (	
    local ||(	"q\"uotehello") 	 )	/* trailing */
my-dashed93=count
module "x" {}
nameé   = <<-EOF
      $${esc}
	${ a + b }
  EOF
long_attribute_name 	 = aws_instance
_under = [
	{ 
  long_attribute_name: local
    value=concat()
"x.y":"${count }"
} ,
    { } ,
  "%{~ for k, v in (  local.a._under [ "k" ]) }${v}%{ endfor ~}${~tolist(   "",
tolist( ) 
 ) }${~  ( aws_instance)  }",
	[
  [ null  ],
  ] 	# item
]
depends_on = {a =  "${~"${~tolist( true )  }"}%{if (null )<=merge(null	, false, /* c3 */ true 	
	)}x%{  else}y%{~ endif~}q\"uote" }


