a =  {	for  i ,v in  [1, 2] :( "a$bünïa$b" /* c4 */ || /* c6 */ each.name.long_attribute_name.depends_on) =>!"%{~ if false  }x%{ else~}y%{ endif ~}${~ ( /* c0 */ 1e3)}${~(true  ) }" }
name =false
ingress x-y "my label"{
  #
  in_x  =each 	 [ count.index]
  ami = merge( "${~ 100}$x${~(path ["k"].12[*].name ) 	 }" ,{long_attribute_name : -"$x", (local.my-dashed.x1.x1)= local.1.*.nameé } , )
}
// comment
x173 =var[*].é_accent["my-dashed"]==count ["${~  data.ami}${~each["instance_type"] ~}${ 100  ~}"][ count.index].12 # trailing
depends_on=- ( { 
	"with space" :"${var[*].instance_type["_under"].long_attribute_name}"
    (data.for_each  [each.key ]) : local[*] 	 [0	].a
"x.y"= (   false /* c9 */ )
} 	 )	#
long_attribute_name="%{~  for k,v in ( "" ?var.tags.in_x.tags: (   null)) }${v}%{~endfor  ~}%{~for k,v in true  }${v}%{~endfor }"
provider "x" 	 { 
  my-dashed=true
}
