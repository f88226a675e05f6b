a = var.x[null]
b = var.x[true][0]
c = var.x[false].y
d = [for v in l : v[null]]
e = f()[null]
f = x[(null)]
