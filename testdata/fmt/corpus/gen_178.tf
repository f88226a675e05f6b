é_accent	=true
locals	bare "e\u00e9"{
}
# comment
 content	"aws_instance" "ünï"{
  é_accent= "${ count}"
  depends_on="\u00e9${~ null   >= ( 	 { for i ,v in  data:007=>null... if null})~}"  // trailing
  instance_type =  ("${ local.1._under.*.my-dashed }" ) <("%{ if (100	)~}x%{~  endif }a b%{ if jsonencode(true , null,true ) }x%{  else }y%{~ endif~}$${not}") /* trailing */
_under	= "" *( count.1 [0] -jsonencode(false ,   ))
}
  b="${ ( true ) ~}{}"
data bare "e\u00e9"{
  locals "a-b" {}
}
