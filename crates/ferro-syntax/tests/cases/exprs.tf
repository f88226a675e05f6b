p1 = 1 + 2 * 3 - 4 / 5 % 6
p2 = a || b && c == d != e < f <= g > h >= i
p3 = !a && -b
p4 = a ? b : c ? d : e
p5 = (1 + 2) * 3
t1 = [1, 2, 3,]
t2 = []
o1 = { a = 1, "b" : 2, (k) = 3 }
o2 = {
  a = 1
  b = 2,
  c = [
    1,
    2
  ]
}
o3 = {}
f1 = max(1, 2, 3)
f2 = concat(a, b...)
f3 = foo(
  1,
  2,
)
f4 = provider::aws::arn_parse(x)
tr1 = var.a.b[0]["k"]
tr2 = a.0.1
tr3 = a[*].b.c[0]
tr4 = a.*.b.c[0]
tr5 = a[*]
fe1 = [for x in xs : x * 2]
fe2 = [for i, x in xs : x if i > 0]
fe3 = {for k, v in m : k => v}
fe4 = {for k, v in m : v => k... if k != ""}
fe5 = {
  for k, v in m :
  k => v
}
n = -1
