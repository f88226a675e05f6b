name="${self[0 ].long_attribute_name }"
a="%{~for v in aws_instance.instance_type.*~}${v}%{~ endfor }%%{not}%{  if ( "${ count.count }" ) ~}x%{ endif  }#no"
ingress  bare	"my label" {
 long_attribute_name= self[*].x1	#
}
value =""
 ami3= 	 !( [ "a$b x " ,data[*].ami.ami.instance_type, count 	 ] )
ingress "x"  {   


  _under= ( ""  ? ( null):  "a ba$b" 	 ) ==each.name
  a=  <<DOC
text
	trailing   
DOC
	é_accent=	"{}" || ( path[count.index /* c9 */ ] >= "$x50% ") # longer trailing comment
   count   = ""
}
