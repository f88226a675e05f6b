  value=  module.ami.b
provider "a\"q"	/* hdr */	{}
in_x=lookup(	"${ path["b"].*.a["tags"]}")
depends_on   = "${~ ("${( 42  )}%{if lookup()}x%{endif ~}back\\slash\U0001F600" ) }${~	"${~ ( "")   ~}back\\slash${~ 	 42}${~"%{~for k, v in module.in_x~}${v}%{~ endfor  ~}%{~  for v in (	2.5E-2) ~}${v}%{~  endfor~}\u00e9"~}"	}%{if ( 	 true   ) /* c7 */ /  concat( count[*].b, "${module.value }"... )  }x%{ else}y%{  endif  }"
instance_type =   count
lifecycle bare{
   }
