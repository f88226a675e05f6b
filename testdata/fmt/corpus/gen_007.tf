_under 	 =   [
    each.tags.ami  # item
  ]
value= <<EOF
EOF
 depends_on=  local.12
long_attribute_name   ="%{for v in coalesce( )  }${v}%{~  endfor }" 	 + 	 ""	# trailing
  content	bare x-y{
  count= ( ( 	 false ) &&(1))>= ( jsonencode( concat(true,2.5E-2 	    ), 	 { 
	"quoted" : 	 3.14
})   )
   instance_type30= {for k, v in [1, 2] :   - aws_instance.1 =>true if  (var[*].ami)   ?   ([for k, v  in {a = 1}:false  if 1]):aws_instance.a}
	b=   count.12.ami.nameé<= ("${var.0.ami}"   )
 é_accent 	 =( ( 1)	&&  ( 1e3 ))< aws_instance
}
for_each=	"%{~if local.*.count?( "" 	 ) :  ""}x%{~ else}y%{~ endif }${~	false /* c1 */ != ("")  ~}%%{not}50% "
in_x={ 
	instance_type={	for i ,v in	[1, 2] :(007 )=>local }
  "with space" = null
	ami=	path[*]["count"] 	 ?"%x%{~  if local.x1  ~}x%{~else~}y%{~endif  }" : "${  ( 42 	 ) ~}//no${~ var }{}"

}  // trailing





