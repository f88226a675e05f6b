   b = length(
    )
name = 	 [  ] # trailing

_under =[ !((true) )	,( "" )/	({ 	 
    é_accent: false
    "x.y" 	 :false
    "with space"=false,
} ),	aws_instance.for_each["instance_type"] 	 [ 1   ], /* c2 */ "back\\slash${   "%%{not}" * ( null) }" ]
	dynamic bare { }
long_attribute_name =- ( count)
ami = ( {   
  ami= max(	)

    (count["long_attribute_name"])   = " x ", /* c */
} ) - /* c7 */ data
in_x	= "%{~for v in -module.value.tags }${v}%{~ endfor~}"
value=( self? self:path.12[1 ] )* ( "${path [each.key ][*].depends_on}"   ) # longer trailing comment
