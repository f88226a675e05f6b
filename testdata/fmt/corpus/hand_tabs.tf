locals {
	a	=	1
		bb = 2
	cc = {
		x = 1
	}
}
