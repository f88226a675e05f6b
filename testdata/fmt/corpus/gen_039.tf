
provider "aws_instance" { 
  resource  bare "x"{
 é_accent =var["depends_on"]
    x1 = "${	count["nameé"]  }"
    b ="${data[*].name.1.tags  }"
    for_each	=[
	aws_instance.a.tags&&coalesce( )   # item
]
    variable "e\u00e9" {}
  }
  ami = "$x" #

  for_each	= [for  k,v in	range(3):"${ ""~}"]
  x1  =count.b.b	# longer trailing comment
}
in_x = [for i ,v in [1, 2]:([for i ,v  in  {a = 1}:length( ) ]) if  module /* c6 */ ]
