a ="%{if !"50% \u00e9" }x%{~ endif  }"
// comment
nested	{
	b=2.5E-2
 }
 provider  x-y /* hdr */{
  count = "${ self 	 }" /* trailing */
  name="${("${self[ each.key   ]["in_x"]}"   ) /* c8 */ >= "%{ if 1 }x%{~endif ~}%x" 	 }%{ if (  -( 	 true) )  ~}x%{else}y%{ endif}#no"
  nameé=	coalesce()
in_x ="${  aws_instance.12["value"] }"
}
tags= "${self }" # trailing
name =(
    {for	v in range(3) : "%{~if 0 }x%{~endif}" =>coalesce(# lc
true, self... ) if  (module[ 	 1].*.name) }  )
nameé=data.*.b
