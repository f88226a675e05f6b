  long_attribute_name= "[${(   ! aws_instance[ "k"][ count.index ].b )}"
   nested  "" {
	depends_on=[
( [ true ] )  ?	var["é_accent"]["a"] :path.tags,
  ""+true ,
  ]
 resource	"x" aws_s3_bucket /* hdr */{
    x1 = count.depends_on
	a=	local._under.value # trailing
nameé= jsonencode()
  }
}
for_each	= 1
é_accent   =[
  {  }  // item
  ]
a89 	 = 	 "${  module[each.key   ].x1["for_each"]	<= self[*].count.0   [ 0  ]~}%{  for v in ( (2.5E-2 )/ max( /* c5 */ true ,true,
 true,/* bc */
 )) ~}${v}%{  endfor~}"
count   = {
  count :{name= data	}
  "x.y" ="${ count[each.key]}" /* c */
}
a = <<EOF
  {
      %{ if c }yes%{ endif }

	}
EOF
depends_on= 	 each["b"].a	// trailing


