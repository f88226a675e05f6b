tags="${-( false ) ~}${   data 	 [0	].12}"&&aws_instance.tags.b["depends_on"]
resource "" "a-b"{ 
}
nested "x"{
  in_x= ""
  for_each   = "%{~for v in "${~  ""~}\n//noback\\slash" *   3.14  }${v}%{~endfor ~}${ format( /* c0 */ !"$${not}%x", !( true	) ,"$xa$b"  ||self.tags	 )	}${~!each.count }$${not}"


	nameé ={
name =jsonencode(merge( ) ) ?( true ):" x \U0001F600${   ( null   ) ~}"
	"x.y"=count.in_x

"x.y": each,	// c

name={
	"with space"=[  for	i ,v in	count: self	if count._under [1]]
  b :({ for v	in [1, 2]: 	 1e3=>null if	null} ),
}
}
}
