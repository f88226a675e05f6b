a = module.x1? ( 	 true) :module.1.instance_type
  # comment
long_attribute_name = 100
	count46 	 = ( [for k, v in range(3) :var[count.index /* c0 */ ].value if  null])	< local.value
ami= {  for k, v in	count :aws_instance[*].for_each=>module...	if  "%{if data["x1"].in_x  ~}x%{  endif}%{~  if "%{ for k, v in (0)  }${v}%{~  endfor~}${"q\"uoteq\"uote"  ~}%x"~}x%{ endif ~}${	! ( null )  ~}" }
   resource "e\u00e9" ""  { in_x 	 =( [
	[false ,1e3 ] 	 ,
	false // item
  ])?false: module.é_accent  }
  // comment
depends_on = !each._under [ "k"].*