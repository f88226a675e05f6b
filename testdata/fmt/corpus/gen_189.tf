// comment
value = 	 module["count"]["ami"]  - ([
	[	for k,v in [1, 2]: null if true ] ,
[ false ,  ] 

] )


