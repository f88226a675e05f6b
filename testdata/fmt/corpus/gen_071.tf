
x1 = -( path[data.*.long_attribute_name 	 ].instance_type["for_each"])
depends_on =self.x1
é_accent = self
resource "aws_instance" ""  {
  ingress{

    // comment
    ami= "%{~  for k, v in length( data.ami[*]%( 	 0 ) ,max( true	... ) ? data:	(true ) )  ~}${v}%{ endfor}${~	- (   "${self._under}"  )}#no" # longer trailing comment
  }
  ami   =<<-EOF
EOF
  depends_on = 	 {  for k,v in  {a = 1} :"" => concat( 
	( false	) !=(true	), "${each.*.for_each.count }"	... 
 )   }
 terraform "e\u00e9" {
    long_attribute_name  ={  }
    nameé= self[ "k" 	 ][*].1
 data "a-b"	aws_s3_bucket{ 
      value= path.*.nameé.count
      é_accent ={ /* c5 */ }
      name =local.my-dashed #
   _under ="${ aws_instance.*.my-dashed.count.é_accent }"
    }
    in_x=- ( count["instance_type"] ?false:	false ) /* trailing */
    content  "ünï" "e\u00e9" { 

    }
 }
  _under7 = merge(
[	for i ,v in {a = 1}: "${ ""   ~}"] ,  aws_instance [ each.key ].nameé 	)
}
lifecycle x-y	bare{ 
}
tags=   -({ 
    "quoted" =false,
"x.y"	: concat(   // lc
 true, true,   null  ,)
} ) // trailing
instance_type = [ module._under 	 , [ ( 42)>   "" ,  "//no$x${	""  ~}", true !="" ,true ,] , 	 1] # trailing
