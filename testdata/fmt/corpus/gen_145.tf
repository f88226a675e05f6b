nameé = 	 aws_instance.b[*].my-dashed.a 	 +"${~(   false   )<="%x"~}%{~if (	concat( false,false,false  	 )) ~}x%{else }y%{endif}${"%{~ for k,v in ""}${v}%{~ endfor  }q\"uote{}"~}hello"
instance_type1 =var #
