value= <<-DOC
      %{ if c }yes%{ endif }
      }

%{ if c }yes%{ endif }
    DOC
	instance_type= var.my-dashed[*]
