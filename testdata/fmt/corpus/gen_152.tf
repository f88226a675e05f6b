	nameé=local!=true
é_accent=  "%{~  for k,v in ("#no%{if ""  ~}x%{~  else}y%{endif  ~}$x" )}${v}%{  endfor  ~}${ self.count [0   ]["tags"]~}"
  module "x" { 	 
// comment
  variable "web" {  
    long_attribute_name =false
  }
  a=-"${~	"${	true  ~}" 	 }${~length() % /* c2 */ 1 }"
  dynamic aws_s3_bucket	{
    my-dashed  = "${ each.count}"
    b  ="\U0001F600\n" # trailing
	depends_on="${ each.nameé}"
  }
}

#   spaced
