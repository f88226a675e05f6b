ami	=["$x%%{not}\n${~ module.1.a}"/( "$x"), local["x1"],"${   "%{~if ( 0 )}x%{ else  ~}y%{  endif }a b\n"~}"  ]
   # comment
 long_attribute_name =  ""
count  = ( (( false)) 	 )	-([{for i ,v  in [1, 2]: true =>true... if false}	, "${path[*].value}" , false ] )	#
  nameé 	 =! lookup( 42 ,"" ,	"%{~  for k,v in ( true)  }${v}%{~  endfor}%{if (false)~}x%{  else ~}y%{~ endif ~}${~   data.in_x["in_x"] [ "k" /* c2 */ ] }%{~ for k, v in (null   )  ~}${v}%{ endfor ~}"   )


instance_type=[
	module.*.b	,
    "helloback\\slash${   !( null	)}",
  [ tolist(  true,null) ? /* c5 */ (false ):(null   ),local[*].long_attribute_name.0? length(   true ,
 null ,	
    false , 	 )  : aws_instance.é_accent["é_accent"], {
    _under=  count # c
  é_accent= [    ],
}, "${ local [	"k"].0["ami"] }"    ],

  ]	// trailing
value= <<-END
      $${esc}
%{ if c }yes%{ endif }
    END
