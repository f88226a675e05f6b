a = <<EOT
trailing   
	tab
   EOT   
bb = 2
