in_x 	 = 	 "" # longer trailing comment
value=   data
ami=  "${~( false ) ~}%{~  if local.0.tags.12  ~}x%{~  else ~}y%{  endif ~}${~  "${~false ~}${each}50% " }%{~ if !"%{for k,v in 3.14 }${v}%{  endfor  ~}"  }x%{~ else ~}y%{~endif  ~}"
/* block */


long_attribute_name=	"${~"${local *( true)   ~}${~self.long_attribute_name   <= "\u00e9ünï%x" ~}"  ~}${~ "%{~ if true }x%{  else  }y%{~  endif}"   <=   "${"%x"   }${ (	1e3	)~}50% " 	 ~}#noback\\slash"  # longer trailing comment
a=coalesce(   )  # trailing
