x1=local	// trailing
# comment
   depends_on  = data[*].a.instance_type
tags = <<-DOC
    DOC
_under=module.my-dashed.in_x /* trailing */
a =local [ count.index].nameé.é_accent
	my-dashed97 =	{	
    x1 =[   ],
}
/* multi
   line */


