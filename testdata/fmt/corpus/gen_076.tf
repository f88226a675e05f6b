resource "x"	bare 	 { 
 value=false
  instance_type   ="\n${~true~}"
tags1= [ for	v	in	self.nameé 	 [ "k"	].value :   path[*].b]
  nested x-y{	
 in_x= var.nameé
 }
}
   count =- local.my-dashed
instance_type  = [  ]
module	"a\"q"{}
nameé=[ 	 for  i ,v in  range(3): (   "${local.ami.value[*].name}" ) if  (( true)) >( concat( 	 true   , 0,  ) )]
tags63	= <<-EOT
    EOT
name=!lookup(
)
data "x" "ünï"	/* hdr */ {
instance_type=true ?(module 	 >""  ): ("${ data.long_attribute_name }")
  é_accent = aws_instance[*].tags["long_attribute_name"]
  a  = length()
variable "my label"{
    instance_type = " x "
    ami=data["nameé"].depends_on
  }
}
provider "web" {
  depends_on =<<EOF

	%{ if c }yes%{ endif }
    # not a comment
  
EOF
	}
