long_attribute_name	= <<END
END
ingress "e\u00e9" "aws_instance" {   
 module  ""{
	resource  "my label" "a-b" { 
      /* block */

 count= "%{  for v in "" ~}${v}%{~endfor ~}%{ if ""~}x%{~else~}y%{~endif ~}"
      name  =1e3
   my-dashed=( /* bc */
!( self.a /* c2 */ ))  #
    }
    ami   = "${merge(  [
  false ,
    true,
	2.5E-2,	// item
]  	 )?   "%x%{~ if ""  }x%{ else }y%{ endif }tab\there": self.name}"
  }
  in_x=   [for  i ,v in	[1, 2] :  each if each* ("a b")]
  a=(
false ||(007))
}
instance_type = each.12[*]
