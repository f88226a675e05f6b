a  =   length( 
null )


depends_on= concat( /* c4 */ )   +({
a   =   100
  x1 = "tab\there" // c
	count=   jsonencode(null	) /* c */

} )
nested "e\u00e9"{
    é_accent=path[*].tags["in_x"]  # trailing
  instance_type= [concat(),"${ 	 (	[
	true 
  ])~}${~("${ data.é_accent.1.é_accent}" ) ~}q\"uote","${ each["k" ] }"]


 value = 	 ([	path[*].value.nameé.value	]   )? "%{ for k, v in format( false
    )	== tolist(false,
 true  ) ~}${v}%{~endfor~}${true}" : (   (""  )	)
  nameé = "${self["count"].b.*.in_x}"
}
 /* multi
   line */
tags=[for k, v in  range(3)	:local.instance_type]
for_each67=-format(   "${~(true )	}a b" , 	 var.name.nameé   ["" ] )
a63=true
my-dashed	=	{ }
