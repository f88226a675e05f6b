ingress	/* hdr */{ 
   value=   ( [ "${local}"	, true	]   )	>   var["for_each"] # trailing
for_each = <<-EOT
    with ${var.x} interp
    EOT
  # comment
  count ={   x1 =-"${merge(  true )}", count 	 = concat() * 	 "%{ if (2.5E-2)}x%{  endif ~}%{~if each[ 	 count.index /* c4 */ ] ~}x%{ else}y%{~endif~}" 	 }
  data "ünï" bare /* hdr */{ 


    my-dashed   = "tab\there${~ ( ( null
  ))~}${~!"" ~}" - "\nünï"
}
}
a=var.*
name   =( count[*].depends_on["a"] [count.index])
in_x=	[ 	  ]
output "aws_instance"   {
é_accent =path[*] || ( local.b.value>= (42) ) // trailing
# comment
  /* block */
  lifecycle ""{
    for_each= - ( true)  // trailing
  }
}


