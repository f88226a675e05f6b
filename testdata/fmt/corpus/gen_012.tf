long_attribute_name	=<<EOF
    # not a comment
      text
EOF
	in_x="${ aws_instance["long_attribute_name"]	}"
/* multi
   line */
 my-dashed41=	"\n${ local["value"].b}\u00e9"
tags=<<EOF
	text
    ${ a + b }
EOF
_under  =	( var.1)  -self
x1  = <<-EOT
%{ if c }yes%{ endif }
  EOT
tags41 =   "${each["in_x"].tags["x1"]}"
