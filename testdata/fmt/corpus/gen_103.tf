count= length({ for	k,v	in  [1, 2] :!(null ) 	 => count[*].é_accent [	each.key].b... if each.*.for_each  [length() ].for_each},
null%	( self) ,
 "%{ if self.*.ami._under }x%{endif }%{  for k, v in each [0   ].my-dashed.*.ami }${v}%{  endfor }${~ "${""	}" 	 ~}")
my-dashed =  <<-EOF
    ${ a + b }
EOF







variable aws_s3_bucket   { 
type = 	 list
}
b =""
value   ={for k, v	in	range(3) :module[*]["value"].tags	- 	 ( module[*].depends_on.é_accent.in_x )  =>" x ${ format( true,007, 	 /* bc */
  false ) ==aws_instance.long_attribute_name.a.for_each }${( "${count	}" )}\u00e9"... if tolist("${~ module }\u00e9$${not}" , {	
  "x.y" = { 
  long_attribute_name = true,  # c
}	/* c */
	"with space" =""  // c

"with space"= 	 var.0
}, "${local.a [count.index][*] }" ) }
