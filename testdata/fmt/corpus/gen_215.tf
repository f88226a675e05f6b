tags= "%{if ""< (false /* c0 */ )  }x%{  else~}y%{~ endif  }%{  for k, v in ("")  ~}${v}%{endfor~}" >= ( local.é_accent.nameé.long_attribute_name)
b  ={ 
  instance_type :max(
    "${(true) ~}${~	count.12.my-dashed.12~}" , "${count }"...)
    (self  [("${ self.é_accent}") ]._under.tags)= "" +"${var }${ 	 (2.5E-2)}%x%{~if ( true)  ~}x%{~else}y%{ endif ~}"
"quoted"= true ?(	self["é_accent"]   ) : 	 (false )	// c
	nameé: [ /* c9 */ for k, v in range(3) : "${ tolist(null, false ... ) ~}%{ if concat( null ,null  
    ) }x%{endif }${~ (   null)~}"],
}	#
	long_attribute_name  =[  for	k, v	in range(3): 	 0  if self.tags[*]._under[0 ]]
instance_type=   null
   #   spaced
 depends_on ="%x"?true :false
	#
