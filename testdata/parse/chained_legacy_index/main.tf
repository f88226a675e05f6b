locals {
  x = [[1]]
  a = local.x.0.0
}
