terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "envs" {
  type    = map(string)
  default = { dev = "d-", prod = "p-" }
}

provider "ferrotest" {
  alias    = "env"
  for_each = var.envs
  prefix   = each.value
}

module "stack" {
  source   = "./stack"
  for_each = var.envs
  providers = {
    ferrotest = ferrotest.env[each.key]
  }
  name = each.key
}

output "computed" {
  value = { for k, m in module.stack : k => m.computed }
}
