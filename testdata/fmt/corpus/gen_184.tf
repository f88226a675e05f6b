/* block */
_under=! (null )
depends_on = each["_under"].my-dashed.value // trailing
b74 =   <<-DOC
  with ${var.x} interp
	text
      $${esc}
    ${ a + b }
    DOC
ami   = tolist(( count  [each.key	].12 )?( (3.14 )) 	 :"${(true)~}${~ false~}"   
)
b ={tags="{}${~true	}",long_attribute_name: count[*], _under="%{ for v in false  ~}${v}%{~  endfor  }${3.14 ~}%{~for k,v in count.*.ami ~}${v}%{~  endfor  }${~ local   }",(var.1[*]) =100 }
instance_type = <<-EOT
  }
EOT
