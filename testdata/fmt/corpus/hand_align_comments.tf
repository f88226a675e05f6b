a = 1 # one
bbbb = 2 # two
cc = "x" // three
# own line
d = 4 /* four */
eeeee = [1, 2] # five
