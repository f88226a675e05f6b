variable "v" {}
resource "null_resource" "c" {
  triggers = { v = var.v }
}
output "out" {
  value = null_resource.c.id
}
