resource  "a-b" "e\u00e9"   {
  x1 	 =(	{    }) < ( ("$xtab\there" ) )  # trailing
}



b = "${module.name}"
for_each={
	"k" ="a$b${false}"
}
depends_on = ""
a =  "${({ b=null,name=null })? self.name   : (( true 	 
 )) 	 ~}%x" # longer trailing comment
output bare { 	 
  tags =true /* trailing */
  depends_on = true
}
ami =<<-EOT
    %{ if c }yes%{ endif }
	trailing   
  EOT
