instance_type	= var
/* block */
	name =(- " x ")  < 	 ( local.in_x.tags	)
