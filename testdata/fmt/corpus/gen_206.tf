tags=   "${ ("" )	}${~   ( false   ) ~}"	-   ( aws_instance )



	a =   jsonencode( )
