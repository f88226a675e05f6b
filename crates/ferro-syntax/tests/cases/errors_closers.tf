locals {
  a = (1 + 2
}
locals {
  f = foo(
}
locals {
  g = foo(1
}
b = [1 2]
c = [1, , 2]
d = max(1 2)
e = max(1, , 2)
g = x.
h = [1 [2] 3]
ok = "after"
i = x[1 2]
