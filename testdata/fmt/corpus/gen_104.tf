   x1= false
#
_under 	 =2.5E-2==module.x1
