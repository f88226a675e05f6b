   value= { }
for_each= <<-EOF
${ a + b }
	$${esc}
EOF
count   =	[ 	 "${~007 !=   (true	)~}"  ,module[*],"${ count.my-dashed.é_accent }" ,[ for  k,v in  {a = 1} : - false	if ("back\\slash")]   ]
in_x= 	 module%tolist( (3.14) && true)
ami   = [   ]
 #   spaced
ingress{ 
  b = ( /* c5 */ "${ count["ami"].1 }"	
)
    depends_on= {   tags=data.instance_type.for_each.value,count=false}
}
