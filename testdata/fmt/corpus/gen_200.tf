b =data["for_each"]["instance_type"].0
   a=self["_under"].name.*.x1 ?   data.for_each.my-dashed.nameé: (format(
    ) )
long_attribute_name= "ünï${~ "${~ var.nameé["tags"]["depends_on"] 	 }ünï" != /* c6 */ "${  data.depends_on._under[*]~}%{~ for k,v in aws_instance.for_each.12.*.tags }${v}%{endfor }${~""~}ünï" }"	#
nested	"e\u00e9" /* hdr */{
  depends_on	=  <<-END
	with ${var.x} interp
# not a comment
  %{ if c }yes%{ endif }
  END
  lifecycle "a\"q" { 
    my-dashed =("${~var [ each.key ].12 [ 1]}//no//no" 	 )   <= each["for_each"].x1
  }
	content  "x"{
    ingress  /* hdr */ {
	}
    in_x 	 ={ for	k,v in count.instance_type:   ( [
	true,
] )? "${~ 	 (true)   }%{ for v in ""}${v}%{~ endfor }":module => ("${module}" ) || /* c8 */ ( /* c3 */ [   for	i ,v in range(3) 	 :null])}

_under=! (module  [0 ].12)
    ami ="%{for k,v in (42 	 ) ? max( 	 ): ("#no%xq\"uote") }${v}%{~endfor  }ünï"	/* trailing */
	}
    tags ={ 
	é_accent   =[ for v	in  self:(each.*.nameé )	if local.x1.x1 ]  // c
  (path) =[
    null>= "\u00e9" 	 , // item
	"${	local }" , # item
  "${~self.12.tags.*.nameé }%{ for k,v in (true)}${v}%{  endfor ~}${~false}[" ,
  (   
    { 
    long_attribute_name : 0
	depends_on= null, /* c */
in_x=true,
}) ,
  ]
_under=	!"${~ (null	)}"
    (local) = ""

} #
  x1 = "${aws_instance 	 }"
}
for_each85= null	-data[*].nameé.1
tags =	"tab\there//no"< null # trailing
é_accent =	lookup()
