depends_on = 	 <<-EOT

${ a + b }
        {
      text
    EOT
in_x= [
    self.12[*],
    "${self.for_each}", # item
"#no%{ if format( self.12 ,  "${  aws_instance["a"][*].x1 }" ,/* bc */
  [ 	 ] ) }x%{~ else  ~}y%{endif ~}$x${({ nameé= 2.5E-2,a: false, 	 tags:false } 	 )}" ,
100 > ( [	0  ]),
]
_under="${count.depends_on.1 }" #
for_each	= data[0 ].count["for_each"]



	count="${~({	for  v  in count[*].ami.depends_on:path=>(null)	if ""} )}${~- data ~}"
name =<<END
    # not a comment
      {
}
# not a comment
END


