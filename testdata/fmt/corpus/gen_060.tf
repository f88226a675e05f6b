   instance_type= 	 format()?( "" ):module.b._under


data	"aws_instance"  aws_s3_bucket{
 nameé = ({
	"k"=[ 1e3   , jsonencode(false, )	,],
    _under	= lookup(null,
false  
  )*  aws_instance
    name: aws_instance.0
})  // trailing
}
   b   =   ({ 	 for k,v	in  range(3)   : "\u00e9"	=> 	 false  if false}   )?   true :("")
locals "x"  "a\"q" { 
  my-dashed= each[count.index] # longer trailing comment


  name= format(
    { for k,v in  count._under:0   <= ( 1e3) =>null...}, 
  "%{  for k, v in "${~"" ~}%x%{ for v in (1e3 )~}${v}%{endfor  ~}"~}${v}%{  endfor}${ self.count[*] ~}%{for k,v in "\n"  ~}${v}%{  endfor }${"${ coalesce(true, null )}${data ~}" }"  )
}
for_each 	 =!""
my-dashed=var
