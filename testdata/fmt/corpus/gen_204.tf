count=	"${ path.in_x[ count.index]}" /* trailing */
tags = [ 	 data.1.in_x["name"] ]
b=var
