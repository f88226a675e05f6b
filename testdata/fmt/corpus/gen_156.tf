	x1 =( /* c1 */ [for	i ,v in	[1, 2]  : 42 if  ( false /* c4 */ ) ])?"%{for k, v in (" x " ) }${v}%{~ endfor ~}$${not}a$b": ( { for k,v in  {a = 1}	: jsonencode(42 ) 	 =>""}	)  // trailing
   # comment
value	= "%{~ for k, v in ((  null)<( /* c4 */ 3.14))  }${v}%{endfor  }%{if (data.my-dashed) }x%{  endif  ~}${~ path.long_attribute_name["depends_on"].name}"
output	"aws_instance"   { 
  name=[for	k,v in  [1, 2]:  module.b.*.nameé ]
  a=(merge(// lc
  "${ data[*].my-dashed.long_attribute_name }", lookup(/* bc */
false),(true)))	- 	 ( - "\U0001F600") /* trailing */
  ingress  "a-b" "ünï"  {
      my-dashed=  ""
      variable x-y {
    }
	ami = true
 instance_type=local.for_each
   count =(module	)
  }
  }
count= [ ( ( 	 2.5E-2))  ?var :( [ ] ) ,  local.in_x	[each.key] ]
  é_accent= var   /	max(( null )/null   ,)
