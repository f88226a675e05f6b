  a= 	 <<-EOF
${ a + b }
  EOF
tags= 	 "${({for  v	in {a = 1}	: 0=>true...}	) ~}${ (   concat(
    ) )}q\"uote" ? "ünï${~	" x ${ lookup( 
  )~} x "~}%{~ if ([for v in range(3): null  if	false ])}x%{~endif  ~}%x" : "${~ (false)?1: ""~}${ "%{~if ( false ) }x%{  else  ~}y%{~endif ~}" }%{for v in data.tags.for_each<= (null) ~}${v}%{ endfor~}"
