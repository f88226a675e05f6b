  lifecycle "a\"q" { nameé = tolist(aws_instance,-"%{~  if self.0["name"] }x%{~  else  ~}y%{ endif  ~}\U0001F600" 	 ,  "${	path.value[ self] }" ) }
_under={	
	long_attribute_name= (1 )<= concat(  "[" 	
  )
    tags=( each[*].my-dashed.0.x1) *1e3
  instance_type   =!false
(var):	null
}
 instance_type = self
   nameé = <<-EOT
	}
    text
EOT
