	_under=merge(module.ami[*] 
	)
 b= null
