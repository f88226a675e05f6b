b = count[ 0][*].instance_type
in_x=var.nameé[*].tags.for_each   !=(path[*]? "#no\U0001F600" : /* c0 */ coalesce(
))
ami=count[ 	 count.index	]["count"]["for_each"]
locals x-y {
    é_accent = "${~ merge(	{},  [false,true , ],"${self["tags"].b }" ,	)?(( true  ) /* c0 */ )	: ""~}$${not}${~ ! concat( {for i ,v in  range(3) :1 =>false if true})}" /* trailing */
 nameé=! "${~007}"
  long_attribute_name="${~ 	 local[*].a<= ( /* c0 */ {for	k, v in [1, 2]:42=> true})~} x "
  x1 =<<EOF
    $${esc}
  trailing   
EOF
  instance_type  =path.for_each["tags"].my-dashed
}


