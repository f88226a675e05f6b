// comment
b   ="%{if -([
0 
  ])}x%{ endif}${~( (
true	) ) 	 *"\u00e9${module.tags.0.for_each ~}" }${"" 	 ~}{}"
ami=merge(   - jsonencode(false,false ),format(// lc
    "$${not}" ) , /* c5 */ "${aws_instance.0.ami [ 0 ] }"	)   ||"${ 	 ""? max(false ... ): 	 (true  )~}"
module "my label"{
}



  instance_type =(   "${~ (false)~}%%{not}${~self._under.1 [true] 	 }${ module.a._under	}" )	- ( /* c1 */ [ "" , {} ,{ for i ,v in {a = 1}:3.14=>null if true }]  )
