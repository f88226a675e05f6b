instance_type 	 =count.my-dashed.for_each
a = local # longer trailing comment
_under=  [for	k,v in range(3)   : module._under.tags  if (! "")   ]
long_attribute_name = "${ each[  data.x1	].instance_type}" // trailing
depends_on29={ 	 for k, v	in	self:module.1[*].value.instance_type %null=> ( ( 	 2.5E-2 )	*data) if 42?( aws_instance.value.a ): ( 	 aws_instance )}
 provider	bare /* hdr */{
 content x-y{
      variable	"x"   {  in_x = 	 (({	name :  2.5E-2,  "with space" = false } ) /* c9 */ )<="{}${~format( { } ,[	for  i ,v in	range(3): false] )  ~}" }
  }
  count  =   <<END
      trailing   
    %{ if c }yes%{ endif }
END
  x1=[ for i ,v in [1, 2] : count.*.for_each["name"]  if	(var.name.count) ]
  value= <<-DOC
    with ${var.x} interp
  
	
      text
DOC
 }


