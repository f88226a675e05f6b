
é_accent=	! "${~true }%{  for k,v in (null) ||"%x"~}${v}%{ endfor  }%{ if ( self.*.depends_on.name )~}x%{~  else }y%{~endif  ~}${ ! ( null )}"
tags=  null  // trailing
name=	concat( )
 my-dashed= 	 module
depends_on73   = - (	{  
name= local.long_attribute_name.tags[   count.index]
	tags= {for	v in	each["x1"]:false => true... if true } # c
} )  # trailing
