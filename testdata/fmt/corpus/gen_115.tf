/* block */
ami= { tags = "",   count="${( { })~}%{for v in ( /* c1 */ {
nameé= null
  "quoted"=false
	my-dashed=null
} 	 )~}${v}%{endfor~}${~-"$x"   }${! var  [   0 	 ] ~}", "quoted" = [ 	 ] }
_under= module["for_each"].my-dashed
  terraform /* hdr */ {
  long_attribute_name=count["_under"].value.tags
  ingress  "web"   {   
 depends_on = 3.14
    instance_type=local
    long_attribute_name=data? ( "${data[*].instance_type }" )	:jsonencode([ "${  self._under.12.depends_on }",   "a b" , merge(
	true,   null ,	1e3      ),   true , 	 ], /* c4 */ )
  }
  value= false
}
#   spaced
  é_accent  =[ ({
	(path) =null
}  )/ 42  ]	# trailing
in_x= "${ module 	 }"
instance_type   = ( module["long_attribute_name"].nameé["ami"])? ( path.b["b"].0   ): /* c2 */ merge(   )
value=   local.12.x1 ? "\n%{~  if ( {
	a   = null
}   )  }x%{ else}y%{~  endif  }${~ 	 module[*].nameé ~}" : tolist(aws_instance["depends_on"]["name"].*.é_accent )
