   long_attribute_name =[   local [ each.key].é_accent?( (  null  )): /* c1 */ path[count.index 	 ].*   [count.index]  , { 
    (data.1 [ 	 ( null) ])  : "" != "#no",
é_accent= "${ 	 aws_instance.in_x.é_accent["é_accent"] }"
value={for v	in  [1, 2] : count=> 	 true }
    "quoted" :"%{~  for k, v in aws_instance ~}${v}%{~ endfor  }"
},-aws_instance.1["x1"]]
a= data.*.in_x
	é_accent28=   local.value # trailing
  b= {for	k,v in  [1, 2]: true =>	("{}${~ true   }$x")	if  "%{~  if ( "$x")  }x%{  endif  }\ntab\there"}
   instance_type= var ?length( ) :"{}%%{not}%{~for k, v in (3.14)<=(false ) }${v}%{ endfor }"
é_accent=<<EOT
    %{ if c }yes%{ endif }
EOT
terraform { 	 
  é_accent  = "${~"${~("" )}${~ merge( 
 "${path }"	,[
null ,
    false ,
    true , // item
    null  
  ]  , data.in_x)}%{  if (null ) ?   aws_instance :true  ~}x%{ endif }$x"  }%{~for k, v in null~}${v}%{endfor }"
  long_attribute_name= <<END
  
END
  nameé	=(path["for_each"]&&({
	(local[ 	 count.index]._under[*].é_accent): true
"with space"=null /* c */
} ))
	count 	 = !count["for_each"] [   1 ]._under
   }
 _under ="\U0001F600"
value = {for  k, v  in {a = 1} : ( 1e3)? "" :"tab\there${ lookup( 2.5E-2 	 , 	 
 0) ~}${var["count"]["x1"].*}"=> 	 "" <=data["_under"][   0 /* c8 */ ] if ( {  "with space": "$${not}","with space"   = "${self.*.tags }","quoted" = 	 { }} )}
