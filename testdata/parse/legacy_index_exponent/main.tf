locals {
  l = [10, 20]
}

output "second" {
  value = local.l.1e0
}
