   _under={ for k, v in  module[*] :!coalesce( 	 
 "%x" , (false) )=>"%{~if count.0  ~}x%{~ endif  ~}%{~  if ({   for k,v in range(3) : true =>	0 if true})~}x%{ else~}y%{ endif  ~}" }
a 	 = "" 	 <=   data
ingress "my label" x-y {  
  tags= "${ local }"
  _under40=[ "",	jsonencode(),	( "")>([ 	 for  v  in data._under	: false  if  2.5E-2] ) 	 , true	] // trailing
  content "e\u00e9" {


    my-dashed =aws_instance[false]["for_each"].tags # trailing
   a= null
  }
  é_accent  = !""
 in_x= ""
}
	name40  ={}
# comment



variable	"aws_instance"  /* hdr */{
type =set
  default=( { for	v in {a = 1}:local.*.x1 =>"tab\there#no"}  
  )
 description = "%%{not}a b"
	}
