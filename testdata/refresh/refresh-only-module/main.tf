module "m" {
  source = "./m"
}

output "seen" {
  value = module.m.value
}
