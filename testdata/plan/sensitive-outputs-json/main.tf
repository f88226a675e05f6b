module "m" {
  source = "./mod"
}

output "token" {
  value     = module.m.token
  sensitive = true
}

output "plain" {
  value = module.m.plain
}

output "revealed" {
  value = nonsensitive(module.m.token)
}
