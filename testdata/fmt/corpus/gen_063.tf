 _under=   "${each.a[  0]	}"	/* trailing */
x1= max( )
for_each =   !module /* trailing */