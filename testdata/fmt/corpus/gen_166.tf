count =aws_instance._under[*]
nested /* hdr */ {
  dynamic "my label"  /* hdr */	{
 }
  x1  =  {
(local) :  [count.nameé,!module.é_accent["name"].value,	self.é_accent[*]	, true ,]

	name: {   for v  in  each["_under"][*].instance_type.long_attribute_name: merge()=> count[*].in_x >= (null)...}
}
  ami = "${~	"a b50% ${false~}" }\u00e9\U0001F600"
  ingress	aws_s3_bucket "my label" {
    # comment
    long_attribute_name  = each.*	# longer trailing comment
      x1=  each[*].value  [ 0]
    ami =! (  true)
    ingress bare "e\u00e9"{ 
	b = {a 	 =( 	 "${local [ "k" ].instance_type }")== length(   var[*],null,"ünï//noünï"  ),"with space" =! (false), "with space" :null } # longer trailing comment
      tags= "q\"uote50% ${~"${ ({   
  in_x= null
	(var.é_accent 	 [1 	 ]["tags"])= true
"x.y"= false
}) ~}${ - (true )   }${	( path[*].name.ami.tags )~}${~lookup( false)	&& format(   
) }"~} x " # trailing
      in_x = <<DOC
text
	  {
DOC
    }
}
	}
# comment
my-dashed= 	 <<-EOT
text
	%{ if c }yes%{ endif }
    EOT
	nameé={ }
# comment
name	=   "[%{  for v in ({ 	 
"with space" =merge(
  false,null, /* c5 */ 1, ) /* c */
    a= "//no{}$${not}"
})}${v}%{ endfor  }50% "
instance_type=   "%{  for k,v in ""  }${v}%{~endfor ~}${~ ( concat( 
null ,0    ) >=length(true ,1e3, 	 100  )  ) 	 ~}${ var.my-dashed 	 [ 0] }ünï"
