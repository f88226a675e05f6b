variable "n" {
  default = 2
}
module "a" {
  source = "./modules/a"
  count  = var.n
  prefix = "p${count.index}"
}
module "single" {
  source = "./modules/a"
  prefix = "s"
}
output "names" {
  value = module.a[*].name
}
output "single" {
  value = module.single
}
