count=!(module["nameé"][*] )
x1 	 =( 	 
007	/ (jsonencode( )) )
	nameé16 	 = jsonencode((1e3	)?"": (true 	 ))>( module.ami[0  ].b)
