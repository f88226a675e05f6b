nameé = 	 [	[ for	k,v in data: self[*] [1 ].my-dashed],"${path}",data["depends_on"], ( module)?("tab\there" )  :(  "${self[ count.index 	 ] }"), ]
  tags=[format( "$x"  , module , ) ] /* trailing */
