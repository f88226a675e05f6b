num = "zz"
