name	= { for	i ,v	in var 	 :( false ) == 	 ([for k, v in {a = 1} :false 	 ]	)=>""... }
x1 =({
	tags: local.in_x [ 	 count.index ],
    long_attribute_name :	null # c
	_under={for i ,v  in range(3) :true => false if	true } /* c */
} ) ? " x \n"	:self.value.in_x.name
tags= -"50% %{~if true  }x%{ endif  ~}%{~ if ( "50% " )}x%{else }y%{ endif}${~var.0.*[  true]	- (1e3 )}"
variable aws_s3_bucket 	 {  instance_type=[ for i ,v in {a = 1}: (  data [0 ].0.count  )]	}
nameé= <<-END
  END
 count   =100
provider  "my label" {
  instance_type=(	(aws_instance.12)< local)
  depends_on = 	 merge(	[
  "${ count.nameé }" 
], 
  (null 	 )? "":""   ... )? 1e3 	 :(""*   var.1)
   }
é_accent =<<END
END
