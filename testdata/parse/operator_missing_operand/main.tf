locals {
  a = "${1 *}"
  b = [1 + ]
  c = true ? : 1
  d = 1 + (2 - "x
  e = 2
}
