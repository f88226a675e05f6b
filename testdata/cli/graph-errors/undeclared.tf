resource "null_resource" "a" {
  triggers = { x = var.nope }
}
