a = [for x in var.list: x]
b = [ for i , x in var.list : x if i > 0 ]
c = {for k,v in var.map: k=>v}
d = {for k, v in var.map : v => k...}
e = {for k, v in var.map : k => v if v != null}
f = [for x in [1, 2]: x]
g = [
  for x in var.list :
  x
]
