module "m" {
  source = "./m"
  n      = "not a number"
}

output "missing" {
  value = module.m.nope
}

output "id" {
  value = module.m.id
}
