content x-y{ 
   count=lookup( 0)? ( -"#no" /* c1 */ ):module[*].b._under["name"]



  terraform { 
	in_x=(null? (null) :(true) ) ?aws_instance.count["instance_type"].b:	length([true   ] 	 ,	3.14*(true ) ,[	"$x" , local[*] [  0].name ] ... )
  }
   x1 	 = local.b #
  nameé = path
}
data  "my label" x-y { 
	long_attribute_name	= ! "%{~  for k,v in - aws_instance.12._under.0 ~}${v}%{~endfor ~}${count.0 ~}${~"${~(true )}%{~ if (1e3 )}x%{endif  ~}"~}%{~ if ( true 	 ) >= ""  }x%{~ endif~}"	# trailing
  b53 = "%{~  if "%{ for k, v in data.x1.a.depends_on }${v}%{~ endfor  }\n">concat("ünï","" )  }x%{~  endif  }{}${~  tolist(   [ "#no",   [	for  v in range(3) :false	] ], 	 "${( true ) }"
)~}a$b"
	/* multi
   line */
}
