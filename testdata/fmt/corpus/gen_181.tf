_under= "${   count[*][0] }"
locals{ 
  output	"a\"q" {  
    #
    count =<<-EOF
    with ${var.x} interp
	with ${var.x} interp
    EOF
    }
  /* multi
   line */
 ami ="ünï${~ each.in_x ~}"
}
