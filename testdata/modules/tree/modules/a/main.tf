variable "prefix" {
  type = string
}
resource "terraform_data" "x" {
  input = "${var.prefix}-x"
}
module "b" {
  source   = "../b"
  for_each = toset(["k1", "k2"])
  v        = "${var.prefix}/${each.key}"
}
output "name" {
  value = terraform_data.x.output
}
output "bs" {
  value = { for k, b in module.b : k => b.out }
}
