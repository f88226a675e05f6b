terraform	"a\"q" "my label"{
  b =each.long_attribute_name.instance_type
}
é_accent="${aws_instance.é_accent	["k"] 	 }"
depends_on=true	# trailing
long_attribute_name = each.value // trailing
my-dashed= 	 [	for k,v  in [1, 2] :- max(self.nameé [1   ]   , 	 // lc
"${  count}" 	 , 
	false 	 
)]
value	=""
tags =   (module ) !=( self["in_x"]["é_accent"] ) # longer trailing comment
