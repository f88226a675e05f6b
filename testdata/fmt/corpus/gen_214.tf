#   spaced
	tags =- max( # lc
    )
  variable  "ünï"{ 
  type =	map(any)
  default=[for  k,v in {a = 1} :	( true) if	"${ length( null, false, 
 2.5E-2     )~}"]
}
_under =( { for v  in	aws_instance.b.a.*.depends_on :(1e3	)=>null  } 	 ) <null
  é_accent = 007
