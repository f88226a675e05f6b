tags	= 0
name 	 =jsonencode( /* c9 */ "${(null 	 ) ~}%{~ if (true)  ~}x%{~  else ~}y%{~  endif } x a$b"<=path,
	{  
	"x.y"="${ (1 )	~}${~(	2.5E-2 ) 	 }${(	true	)}q\"uote" # c
  instance_type: self.a.in_x
    "x.y" =""

  for_each:"[",
}# lc
    )
nameé =<<EOT
    %{ if c }yes%{ endif }
    trailing   
  $${esc}
EOT
for_each=	! ( 1 )
/* multi
   line */
in_x= "${ "a$b${~ 	 ( null	) ~}"}"+"${~ -self}%{~  for v in ( 	 {
tags:   2.5E-2
	instance_type 	 =0
} ) ~}${v}%{endfor  ~}%{  if coalesce(false  )   <= ( null) ~}x%{  else  ~}y%{~ endif~}${~   (  false ) ~}"
nested{ 
}
