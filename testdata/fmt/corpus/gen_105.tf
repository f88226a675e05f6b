



nested  "x" {	
  count=module.count.a
  content  "e\u00e9" "my label" 	 {}
 // comment
  x1 =( "${null~}ünï%{~ for k,v in count[each.key 	 ][0] [ 	 count.index	] ~}${v}%{~  endfor  }${~var.b ~}") 	 ? 	 ""	: (false   ) # longer trailing comment
}
/* block */
	resource  aws_s3_bucket "a-b"	/* hdr */{
    tags =(!(  false )) ?(  path[	"$x" ].count	):length(-each, ) # trailing
   module	"a\"q" {   
    provider	"a-b"{  long_attribute_name ={in_x={
"with space":	[
"${   data[ true ].* }", # item
],
	"x.y"  = 	 1e3  /* c */
}  }  }
 output "ünï"{ 


 value=   ( data["count"]	) *each
	my-dashed =   "${~ module[ /* c5 */ ""   ] 	 }"*true
    }
    ami=format(   self[*].for_each,"${local.long_attribute_name.for_each}" )
    locals  "a-b" x-y  /* hdr */{  a=( [	module[*].x1.long_attribute_name, null, "${ aws_instance.count["long_attribute_name"] }",data.depends_on[*].value]) * ( "" ) }
    count =((1e3	)!=	( false)   ) || module.1.x1
   }
  provider  bare 	 {}
  // comment
  provider	"web"{
	value   =   ( ! ( false )  )?  ( length(""    ) ) :   ((100)|| "")
	my-dashed= {name: "tab\there${~ tolist( false... )~}//no${aws_instance~}" }
    count ="${path.0[   1 ]   }"
    ami =  <<-EOF
with ${var.x} interp
	${ a + b }
EOF
  }
}
instance_type =null
in_x ={ for k, v	in [1, 2] :"${	( { ami :null,name  = false})~}%{~for v in local.value[*].for_each}${v}%{endfor}\U0001F600"=>null}
value=aws_instance["nameé"]
   // comment
