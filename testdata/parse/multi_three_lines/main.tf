locals {
  a =
  b = "open
  c = 1 +
  d = "fine"
}
