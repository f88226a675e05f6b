x1=""
#   spaced
locals	bare { ami=max(  
	"${ 	 module["value"][	1  ] }"...
 ) }
terraform  aws_s3_bucket  bare {  }
é_accent= -merge( false,  
 false 	 , 	 (false   ) 	 <= "q\"uote",	)
#
count = {name=  [true ,"${ path["long_attribute_name"] }" ,tolist( {	
    ami= true  // c
  ami : false
  _under : false

	"quoted"= true  /* c */
} ) , "${each.a.1 }"  ],"quoted"="$x%{ if ( false )  -path["depends_on"][*]}x%{ endif}%{for v in each.for_each[ count.index 	 ].depends_on ~}${v}%{ endfor }%%{not}"}
ingress	{


for_each=   <<-EOT
text
	${ a + b }
EOT
  tags=(var.instance_type[ 0 ] ||( false  )) >= concat( 
	concat()	
    )
	}
instance_type=! ( 	 "${ var["é_accent"].count}")
