nameé=	[ "[${! aws_instance.long_attribute_name.12.long_attribute_name ~}${!data [ 1 ][*].depends_on ~}"  ]  # trailing
/* block */
value=42||aws_instance[*].name["ami"]["in_x"]
_under= false  #
