terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "keys" {
  value = "a"
}

locals {
  keys = toset([ferrotest_thing.keys.value])
}

provider "ferrotest" {
  alias    = "dyn"
  for_each = local.keys
  prefix   = each.key
}

provider "ferrotest" {
  alias    = "missing"
  for_each = var.nothing
}

variable "nothing" {
  type = set(string)
}

resource "ferrotest_thing" "t" {
  for_each = local.keys
  provider = ferrotest.dyn[each.key]
  value    = each.key
}

resource "ferrotest_thing" "u" {
  provider = ferrotest.missing["x"]
  value    = "u"
}
