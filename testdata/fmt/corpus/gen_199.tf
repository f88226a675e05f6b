content {
   for_each=	{ 
	(aws_instance.long_attribute_name [  count.index].0)= [
	"%{if path.*.name[ "k" 	 ].in_x ~}x%{~ else}y%{~ endif ~}%{~  if ( 	 null)~}x%{endif~}50% "
]
}	#
value ="${module.*.nameé.1.tags }"
  dynamic "aws_instance"{ 
	my-dashed=( 	 
 local )
    count= [
	"${ count.my-dashed	[0 ].instance_type}" 	 ,
    "${ false }%{  if ("")  ~}x%{endif~}"   ,
  local["x1"] ["k" ].1   ==([
    false,
	null ,
null 
]),
    null,
]
    count95="${module}"
    dynamic "a\"q"{ 
    }
    in_x8 =path.1["x1"].depends_on
 }


}
/* multi
   line */
ami="%{~if ( each.in_x 	 [ 1 ]  )}x%{  else}y%{  endif ~}%{~  if ((  false ) ||lookup(true, 	 true ))}x%{ else}y%{~endif}"
nameé= "${ data.in_x.*.value._under}" # longer trailing comment
tags=	aws_instance [ each.key].12
   output "aws_instance" /* hdr */	{ 
    terraform "web"{  }
  depends_on= <<-END
	text
  {
END
  module  bare   {
   #   spaced
    b =[for k,v in  range(3)	:( [
    [
    null,
    null 	 ,

    true,
]	,
    "%%{not}"  , // item
data
  ] ) ]
    dynamic "e\u00e9" {}
    for_each =local.*.tags.depends_on < ( { 	 
  "quoted"	: "50% ",

  instance_type: ( true),
    (each["long_attribute_name"][*].name.for_each)   : coalesce(0  ,false ...),
x1=""
} ) #
    name  = "${local["long_attribute_name"]._under	}"
  }
_under=true -aws_instance.0
}
