module "missing" {
  source = "./modules/nope"
}
module "child" {
  source  = "./modules/child"
  unknown = 1
}
module "each" {
  source   = "./modules/child"
  for_each = 5
  name     = "x"
}
module "loop" {
  source = "./modules/loop"
}
output "o" {
  value = module.chidl.out
}
