variable "names" {
  type    = list(string)
  default = ["b", "a", "c"]
}

locals {
  upper   = [for n in var.names : upper(n)]
  indexed = { for i, n in var.names : n => i }
  joined  = join("-", sort(var.names))
  cond    = length(var.names) > 2 ? "many" : "few"
  math    = (10 + 5) * 2 / 3 % 4
  logic   = !(true && false) || false
}

output "upper" {
  value = local.upper
}

output "indexed" {
  value = local.indexed
}

output "joined" {
  value = local.joined
}

output "cond" {
  value = local.cond
}

output "math" {
  value = local.math
}

output "logic" {
  value = local.logic
}
