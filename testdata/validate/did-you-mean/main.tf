variable "region" {
  default = "x"
}
locals {
  zone = "a"
}
output "a" {
  value = var.regon
}
output "b" {
  value = local.zon
}
output "c" {
  value = var.totally_different
}
