a = f()
b = f(1,2)
c = f( 1 , 2 , )
d = f(var.list...)
e = f(
  1,
  2,
)
f = f(
  g(
    1
  )
)
g = f(1, [
  2,
])
