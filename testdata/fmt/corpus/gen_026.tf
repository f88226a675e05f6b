long_attribute_name = -((2.5E-2) *	(false	) )	# longer trailing comment
my-dashed 	 = 	 length( 	 
  jsonencode(),   path.ami   )
b   ="${ count["x1"] }"	// trailing
  ami =  true
