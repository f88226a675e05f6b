value  = <<EOT
	trailing   
EOT
é_accent ="%{for k,v in 3.14 }${v}%{ endfor  }%%{not}%%{not}%{~ if aws_instance.*.in_x.my-dashed }x%{~else ~}y%{endif  }" # longer trailing comment
count16 =false
a = ( each<=   merge(true, false ))%count.instance_type.ami [   0 ]
	in_x69 = {
  (path)   :[ each[*].my-dashed.my-dashed? coalesce(true,true   , true 
  ) : ""    ], # c
	in_x	: "${ count 	 [ each.key ].in_x.*.nameé}"

} # trailing
terraform "my label"	"x"  { count	=(- false ) /false }
name=each[0 ]  #
