// comment
ami= 	 ( each["depends_on"] )?(! 1e3 ) :var["instance_type"]
count  = "${~ "${~"$${not}%{~  for k,v in 3.14}${v}%{~endfor}{}${ 	 ( true	)~}"}" }%{~ for k, v in "" -"a b${ "q\"uoteback\\slash"~}${each [count.index][*].b ~}${   null}"  ~}${v}%{~endfor ~}%{for k, v in ( 	 [ path [ each.key ],  local.12.instance_type.in_x , coalesce(
  3.14 ... 	 ) ,"${self.0}" , ] )~}${v}%{  endfor}"


nested{ count=false }
  x1= ( "${ count["é_accent"]}") 	 && ( (1e3)   ||(true)   )
#   spaced
 nameé=( 
	"hello[%{ for k,v in (false) }${v}%{endfor  ~}%{~if ( null ) }x%{ else  }y%{~endif}" ?(2.5E-2 ):  ("#no" /* c2 */ ))
