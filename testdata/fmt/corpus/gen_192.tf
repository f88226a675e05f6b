   #   spaced
   a=! (-module.b ) # longer trailing comment
_under	= {"with space"="%{~  for v in "%{~if ""~}x%{~endif ~}" ~}${v}%{~ endfor  ~}${ ( null ) >=( 2.5E-2)~}",count : { 
b :	concat( 
    "${var.tags}" , 
 "${   aws_instance.é_accent}" 	 , false )
tags :false
    tags=   module
}, b   = local["b"]["count"].0, my-dashed=merge("tab\thereünï" ,coalesce( true, 
null,  null	)	% (false), 	 path[1  ][*].depends_on [ count.index	]... )}
	depends_on  =false
