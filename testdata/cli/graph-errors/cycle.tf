locals {
  a = local.b
  b = local.a
}
resource "null_resource" "r" {
  triggers = { a = local.a }
}
