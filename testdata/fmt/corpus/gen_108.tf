terraform{  }
in_x=var.a
ami=   <<-EOT
    %{ if c }yes%{ endif }
  ${ a + b }
$${esc}
# not a comment
    EOT
name = true? (-(   100) ) : ( 	 "tab\there${ (false 	 )}%{~  if var.ami[*].1 }x%{else~}y%{endif  }${ "\U0001F600"~}" )
nameé= 	 count["my-dashed"][ count.index].ami
long_attribute_name=data.é_accent.12
