long_attribute_name = data.long_attribute_name  &&	"%{~  if "${ null~}%{ for v in path.tags~}${v}%{ endfor  ~}[%{~ if "" }x%{~  endif ~}"  }x%{ else }y%{~  endif  }"
instance_type= ("\U0001F600" )== length( jsonencode(# lc
 ) , 	 {
    name :  aws_instance[*].nameé.count
	"x.y" :""  // c
  x1 : 007  /* c */
    value:   null

} )


