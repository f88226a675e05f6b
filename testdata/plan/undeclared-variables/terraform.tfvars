zz = 2
