module "m" {
  source = "./m"
  n = 1
}
module "k" {
  source = "./m"
  count = 2
  n = 1
}
module "f" {
  source = "./m"
  for_each = toset(["a"])
  n = 1
}
output "x" { value = module.m.nope }
output "y" { value = module.k.n }
output "z" { value = module.f.n }
output "w" { value = module.k["a"].n }
output "ok" { value = module.k[0].n }
