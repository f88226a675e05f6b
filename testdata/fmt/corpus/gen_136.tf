
   a={	"x.y": "${path}", /* c6 */ "quoted" = jsonencode( { } ) <=({ for v in {a = 1} :null=> null if false} 	 ) 	 } # trailing
x1	=[
]
é_accent = ["%{ for k, v in (true)}${v}%{~ endfor~}%x" , [for i ,v  in	each   : "" ?local._under[count.index ].0: 0] 	 , (  module.*[false ]["tags"] )* ( null	) ]
  in_x = "${path }"