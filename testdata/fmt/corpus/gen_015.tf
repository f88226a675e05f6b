   a =local[*].long_attribute_name["for_each"] #
for_each = { 
_under :   "", /* c */
"quoted"=  aws_instance[	0 ] + each[1 ].nameé
    _under:data
long_attribute_name :aws_instance,
}
  _under =""
 depends_on= - local.é_accent[  1 ][*].name
