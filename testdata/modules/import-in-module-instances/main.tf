terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

locals {
  names = toset(["x", "y"])
}

module "counted" {
  count  = 2
  source = "./child"
  name   = "c${count.index}"
}

module "keyed" {
  for_each = local.names
  source   = "./child"
  name     = "k-${each.key}"
}
