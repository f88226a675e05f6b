resource "a" "b" {
  x=1
  yyy = 2 # c

  list = [
  1,
  2,
  ]
}
