   instance_type	=   [
  null   + ([false,007 , false,   null]) ,
    "${   self.12.é_accent.12 }",
	{ 	 for  v	in range(3):  count.*["value"] =>(false ) >= self.a.*.instance_type if	"%{~ if (   false 	 ) ~}x%{  else~}y%{~endif  ~}${""}"},
  ]	/* trailing */
nameé =null==true
name = (path.nameé.nameé["instance_type"])   ? ( 	 [null, /* c1 */ "50% "  , [null   ,null,false] , module["my-dashed"] ]) :  ( 3.14)
/* block */
  provider  "e\u00e9" {   
   long_attribute_name=-self.b.nameé
  my-dashed= <<-DOC
with ${var.x} interp
    DOC
  _under =  !""
  é_accent37 	 ={ "k"=( count)   * 	 max( "%x", { "k":null, /* c4 */ count: 	 1,(path) 	 : true,b 	 :null} ,   ),ami = ( true * /* c1 */ "a$b"
  ),a= "${ 	 aws_instance[*]}"}
  }
é_accent =! length( null, {for k, v in range(3)	:each.name.name["k"]=> (true )... }
)
