 // comment
	in_x=  <<-EOT
%{ if c }yes%{ endif }
	trailing   
	}
  EOT
// comment
é_accent=  var["value"].tags
nameé	=self!=data # trailing
