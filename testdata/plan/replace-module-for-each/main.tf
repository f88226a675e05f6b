module "m" {
  source   = "./mod"
  for_each = toset(["a", "b"])
  name     = each.key
}

output "ids" {
  value = { for k, m in module.m : k => m.id != "" }
}
