a = 1
bb = {
  x = 1
  yyy = 2
}
ccc = 3
d = [
  1,
]
eeeee = 5
