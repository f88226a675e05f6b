count =(	(true  )?  ( true ): (   false))>=" x "
instance_type= 	 [ ]
ami={for  k, v  in [1, 2]:( ""   )   != "${(	true) }%{ if ( false) ~}x%{ else  ~}y%{~ endif~}%{~for k, v in "tab\there" ~}${v}%{  endfor  }"=> "%{for k, v in each[count.index][*].tags.depends_on}${v}%{~endfor ~}"	<= ( [ for k, v in {a = 1}: true]  )  if  ("${   aws_instance 	 }"   ) ?( "") : length( "${  self [ each.key ].in_x.b}" ,[ for k, v in [1, 2]:true if 42   ]... )}
   name   =   "${aws_instance  }"
a= 	 -"%{~for k, v in "${(	null)  ~}${   ( 42   ) ~}"  }${v}%{~ endfor  }%{~ for k,v in ({ 	 depends_on: true,long_attribute_name= 1  } ) }${v}%{ endfor}"
long_attribute_name28= (   (1e3 )==	"") || 	 ("a$b"?path [ 	 each.key ].value.value:  (	false))
long_attribute_name = <<END
      # not a comment
  $${esc}
END
