a 1
