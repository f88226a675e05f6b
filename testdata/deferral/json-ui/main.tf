terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "v" {
  default = "1"
}

resource "ferrotest_thing" "base" {
  value = var.v
}

module "m" {
  source   = "./child"
  for_each = toset([ferrotest_thing.base.computed])
  name     = each.key
}

resource "ferrotest_thing" "uses_module" {
  value = join(",", [for k, m in module.m : m.out])
}

output "outs" {
  value = { for k, m in module.m : k => m.out }
}
