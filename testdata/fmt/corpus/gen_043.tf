data	"a\"q"	"a-b"{  }
b=format( 
    [
  format( true ,	false  ) - ( null	) 	 
  ]   , - (local.depends_on),
[data [each.key ]["depends_on"]?(false) 	 :(null) ,(true 	 ) +concat(   ) ]  	 )
value	= <<-END
      ${ a + b }
  
END
 long_attribute_name =tolist( 
    path["depends_on"].a.count,	
local.*.value.é_accent>="${( /* c6 */ 2.5E-2) ~}%{~for v in ( false  ) ~}${v}%{~endfor ~}${~ "[ x %x"~}",
  )
tags   = "${~ 	 (  "%x"==  ( null ))}${~ ( ([
42 ,
false,
	null   ,
]	
 ) ) ~}"
# comment
my-dashed9 =(	[ ] )	? 100 	 :   length(   )	/* trailing */
