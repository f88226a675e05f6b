é_accent=  each.0.depends_on
count="${~"//no${~ ""~}"~}%{ for v in null~}${v}%{  endfor  }"   / (! var   ) /* trailing */
data  "a-b"	"web"{	
  x1	=!""
  in_x=	( 100 
 ) # longer trailing comment
  # comment
}
nameé ="${count}"  # longer trailing comment
for_each = self.for_each["é_accent"]
b =	aws_instance[*].my-dashed["name"]


ingress	"a-b"{ 
  data "web" "aws_instance"  { 
   é_accent= 	 [
]
  }
  /* multi
   line */
é_accent=true
  my-dashed ="%{~  if data.*~}x%{ endif}${~	self.0["b"]  }"
   name ="${path.count }"
}
