lifecycle aws_s3_bucket  ""{
  depends_on =   <<EOF
EOF
  é_accent =[path ["k" ].*.my-dashed.1, null ,"%{~ if count.1[*].ami ~}x%{else  ~}y%{endif }%{ for k, v in "tab\there" ~}${v}%{~ endfor }\n" ?  (""):( null ) ]	/* trailing */
  ami = "${ local.my-dashed[*]["é_accent"]}"
 }
long_attribute_name=   tolist( 
  {for	k,v	in [1, 2]: 	 ""+( true) => merge(  [
	false	,
null ,
true ,	// item
  3.14 ,
], length( ) , aws_instance.depends_on )... /* c4 */ } ,[
	lookup( # lc
	true 
  ),
    (3.14)  ? null  :	(1e3 ) ,
	{} ,
] 	  )
	b= " x ${~({for  k,v in  [1, 2] :null	=>true } ) }"*   ({ 
nameé	:true

})
value={  }
#   spaced
count   =["" , {for  k,v in  [1, 2]: concat(  ) =>count ["k" ] /* c4 */ }	,   var.0	]
   _under 	 = <<-EOT
  {
  EOT
resource "a\"q" "a-b"	/* hdr */{ 
  ami=""
 b=(	"${~format( null... 	 )  ~}${ path.tags["long_attribute_name"]["nameé"] }${~each~}")/( (007) /* c1 */ ?(0 ) 	 :(true   ) )
  name ="%{  if (null>= false )  }x%{endif  ~}%%{not}[%{  for v in count.ami% false }${v}%{~ endfor  ~}"
}
