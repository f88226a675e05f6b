module "m" {
  source = "./a"
}

output "from" {
  value = module.m.from
}
