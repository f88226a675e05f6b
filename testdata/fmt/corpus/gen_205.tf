   /* multi
   line */
ami =var+  format(	// lc
{  for	k, v	in	range(3) : "[[" =>  path.x1.for_each.b}, {  
	value= aws_instance.12 // c
} ...
	)
instance_type49=   ( path["instance_type"] [ "k"] ) # trailing
  module aws_s3_bucket {	
  é_accent=""	// trailing
  long_attribute_name= count.1
	tags=	data.in_x.name # trailing
  count=aws_instance.b["b"]
  value10= 	 (module.depends_on )==local.*.b.x1
}
resource x-y	bare 	 {   
   instance_type 	 = 	 concat()	==( { 
  name  :length( ) // c
	"x.y" =(null 	 )
	(path.1[*].instance_type) ={
  for_each=true	# c

}
    "x.y"= 	 null // c

} )
  value   = concat()
}
