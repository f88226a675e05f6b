ok = 1
