variable "n" {
  default = 1
}
locals {
  x = var.n + 1
}
resource "null_resource" "a" {
  count = local.x
}
data "null_data_source" "d" {
  inputs = { a = null_resource.a[0].id }
}
module "m" {
  source = "./m"
  v      = data.null_data_source.d.outputs["a"]
}
output "o" {
  value = module.m.out
}
