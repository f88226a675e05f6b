



lifecycle  "a-b"{  tags=("${~var	}tab\there%{~  for k, v in jsonencode( false  ,null ...)}${v}%{endfor~}${42}")   >= (length(null ) 	 ) }
data "a\"q"	"aws_instance" { 
  /* multi
   line */


  depends_on=[[
  false ,
  local["in_x"]["é_accent"] ?(null):"",
	"${	3.14 ~}${ path.ami["instance_type"]}${~( true  )~}%{ if ( 	 null	)}x%{ endif }"	// item
  ],each  - ( true) ,]

name="%x"
}
   name= <<-EOT
    EOT
ami= 	 "%{~ if null~}x%{else~}y%{~ endif }%{~ for v in each.long_attribute_name.0.in_x ?(	[for	k, v in {a = 1}	:true if	true   ] 	 ):2.5E-2  }${v}%{~ endfor  }"
lifecycle "a\"q"{ 
}
terraform	"" {
 value ={  }
}
