_under= ""
nameé=(# lc
path )
_under96= ( "") 	 ||  (   [
    [
] ,
  ]	)
	tags =   var["ami"].*.a
for_each = "${ module.12 }"  // trailing
depends_on  = false  ? 	 "${local 	 }//no" :100
depends_on86 = "${~!(null ) ~}${(  true )+false}"+ "%{~  for v in local[   "k"].count.value }${v}%{~  endfor  ~}"
  b ="\n${path.*.value ~}%{~for k, v in module.12.long_attribute_name 	 [ each.key]  ~}${v}%{~endfor~}%{  for v in ( ( false)?lookup( 
	false 	 ... 
  ):   "" )~}${v}%{ endfor  }"
