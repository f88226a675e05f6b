in_x=[! "%%{not}ünï${"%x" }["  ,  "" 	 ,	{ for k,v in range(3): (	"")=>( [true , true ] 	 ) },max("${aws_instance["value"]}"  ,max( self[ 1 ].instance_type,
    {for i ,v in range(3): null=>007   } ,   local) ,(   
false) ) ]
 terraform /* hdr */   {  
}
long_attribute_name= 	 { name  =	{
  (path)=local.1&&(  true  ) # c
    name : path[0   ].*.b
}, "k" ="\n%%{not}" }



 instance_type=<<-END
	  {
text
${ a + b }
END
// comment
depends_on= "${path.nameé	}"


