variable "tag" {}
resource "null_resource" "in_a" {
  triggers = { t = var.tag }
}
module "b" {
  source   = "./b"
  for_each = toset([var.tag])
  x        = null_resource.in_a.id
}
output "b_out" {
  value = module.b
}
