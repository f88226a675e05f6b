  instance_type   =	(self [ /* c4 */ "k"][ count.index])==	count.é_accent.*.in_x.12
  #   spaced
dynamic "" {  
  _under="${var.*.value.value }"
  depends_on   ={  
    é_accent= path["depends_on"]
	my-dashed={
(var)=[   for v	in	{a = 1}  : ( 1 ) ] # c
  depends_on:null
  "with space"  ="${module.for_each[*].depends_on }",
    x1="${~"" ~} x ${ 	 (007) }a b"
}
  "k":"%{~ if false  ~}x%{  else  ~}y%{  endif  }"
}
}
my-dashed56 ={  
	"k"	:"${ path.x1 }"	// c
for_each	:(	jsonencode( false,1 	 ,  100 	 ,)) > true
}  # trailing
for_each="50% "
b   = - module
