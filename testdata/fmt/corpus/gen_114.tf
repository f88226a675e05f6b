  ami= (each [  1].é_accent.0 - /* c2 */ "")?"${~ ([true, 100, false, true ]   )}\u00e9$${not}%{  if 3.14  ~}x%{else~}y%{  endif~}" : true
my-dashed={ for v in  {a = 1}:tolist(- "tab\there"   
) =>local}
value80 =   null ? ({
	x1 =[for i ,v in aws_instance :  true if false]
name :  false # c
    count   =self.instance_type.12.my-dashed
} ) 	 : "${~( "" )~}"	# trailing
 ingress{}
é_accent="\u00e9${~ concat( 	 
    "50% a$b"<= (null)# lc
	)~}%{~for k,v in ( 	 (false) >=100  )}${v}%{endfor  ~}"
content   { 
   }
 nested{ 
}
count  = null
 name= { count:( self [  "k" 	 ])  - aws_instance, name  =merge(
 count.long_attribute_name[*].é_accent.b<=data.instance_type 
    ),count: {for v in	[1, 2] : (1 )<= "" =>1  if true},x1 	 =!"#no${~  (true  )}%{ for v in (42 )  }${v}%{  endfor }" 	 }
