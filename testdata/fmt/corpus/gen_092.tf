my-dashed= "${count[*] [1 ]._under}" /* trailing */
nameé =   count._under [0 ].name # trailing
count=local.value 	 [ each.key]	/* trailing */
  #   spaced
x1 	 = { "x.y" :"${count.*.é_accent._under.1}", nameé ={ for v	in range(3):(""	)=> "${ 	 ( 	 false ) }" 	 }, a	: data.b}
name =local._under<module.b
a = <<-EOF
trailing   
	text
$${esc}
trailing   
  EOF
my-dashed72  =<<-EOT
      %{ if c }yes%{ endif }
with ${var.x} interp
  # not a comment
  # not a comment
  EOT
ami  ={
	(each   [ count.index	])  =  local[*].tags [	"k" ].12
	long_attribute_name="${~ (   "${ data[*].depends_on }")~}a b%{  for k, v in null - ""  }${v}%{endfor~}"
}
