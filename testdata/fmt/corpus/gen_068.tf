for_each= { my-dashed 	 :aws_instance.x1.tags*( [ for k, v in {a = 1}:true if 1e3 ] ),   "quoted" :{  for k,v	in {a = 1} :merge( aws_instance ,) => ""},"with space"  = data._under["ami"].x1 }
 é_accent= [for v in  {a = 1}:"${~"${ ( 007 	 ) }"}tab\there//nohello" if (   "${~(false )~}${~false~}") ]
name =   {
  (local["nameé"])   = module.instance_type[*].long_attribute_name.count
    nameé=! "${null}"
}
 nested "" "x"{   
  for_each=true // trailing
  output "my label"	{ 
    name= {
"k"=  { 
	"with space" = ({for k, v  in  range(3)   : true=>  true}   ), /* c */

depends_on=(true ) ==data
    name=2.5E-2 /* c */
}
    long_attribute_name=! local.depends_on.*.in_x
}
 long_attribute_name= null	#
  }
}
nameé =   "${ local.nameé["long_attribute_name"] }"
resource "e\u00e9" "aws_instance" { 
  ami=  each 	 &&each.*.long_attribute_name.x1["my-dashed"] /* trailing */
  value="${ length(   // lc
    )? 	 ((false )) 	 :data.1.ami }50% "
}
my-dashed  = [ /* c1 */ for	v in	range(3) : coalesce() < ( /* c0 */ false ) ] // trailing
ami = {
  instance_type= (	{} ) /* c4 */ %path[*]._under.instance_type.é_accent
}
