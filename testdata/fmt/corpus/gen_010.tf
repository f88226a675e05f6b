instance_type = 	 var
  long_attribute_name	= ( (true) ==( false ))? path :	"${~"" }back\\slashtab\there%{~ for v in ("" ) }${v}%{endfor  }"


tags  = !({ for	i ,v in  {a = 1}	: (	100)=> ( true )  }) #
