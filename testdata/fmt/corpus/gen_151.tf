dynamic "a-b"{ 
	my-dashed=<<-DOC
  {
    $${esc}
DOC

  b = <<EOF
      %{ if c }yes%{ endif }
  {
  # not a comment
	text
EOF
  in_x= {	
"with space" ="%{ if ! var[each.key ].a  }x%{~ else  }y%{  endif}${~ ( [ for	v in [1, 2] :3.14 ] 	 ) ~}\u00e9${ 	 local._under }"
a = 	 data.x1.nameé==(	"\U0001F600"),
  "x.y" : false ?"%{~if true}x%{endif}${   "" }" /* c5 */ : (	{ instance_type =false, (data["long_attribute_name"])=  null } )
}
  nameé =<<DOC
DOC
 }
x1=concat(local.my-dashed["x1"].my-dashed... )
	name=  path["value"].1.count
tags= 	 "${ data.1}" # trailing


