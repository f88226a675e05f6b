output	x-y	{}
a =(coalesce( 
    ) ) % 	 (  2.5E-2)
provider "ünï"{	
  _under= each.*.1
}
for_each  ="${aws_instance.0.count}"
