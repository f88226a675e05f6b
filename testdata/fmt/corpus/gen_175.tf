my-dashed= "${~module +("" )~}{}%{  for k, v in "${ ! (true ) ~} x "  }${v}%{ endfor }$x" // trailing
long_attribute_name= { 
	(aws_instance[   "k" ].x1.depends_on): ({
_under=false	/* c */

"with space" =false
} )  + "%{~ for k, v in false  ~}${v}%{~  endfor  }${~ ( null ) }", # c
	b = [self["a"].count.my-dashed 	 ]
	a =   aws_instance,
}
é_accent= (
	[
	[  ] ,
    local._under.*.for_each?( true) :( null)	
  ]	)
value ="${   merge( )}${~ - false ~}"?null:null # longer trailing comment
nameé = "" #
