variable "x" {
  default = "d"
}
provider "null" {
  alias = "own"
}
resource "null_resource" "in_b" {
  provider = null.own
  triggers = { x = var.x }
}
data "null_data_source" "d" {
  inputs = { x = var.x }
}
locals {
  l = var.x
}
output "id" {
  value = null_resource.in_b.id
}
