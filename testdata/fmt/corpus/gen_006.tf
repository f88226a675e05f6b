#
_under=(jsonencode((true), [
  100
] ...
  ) )	? null : "\u00e9" /* trailing */
dynamic  "ünï"{	
  b  = aws_instance[*].x1[ 	 "k"	] // trailing
  depends_on="${var.ami.depends_on  }"
    name90=[for v in [1, 2] :  "${(  "\n")}tab\there${~ ( false	) > ( false)}" ]
   instance_type = 	 "${path.é_accent.value}"
}
/* block */
