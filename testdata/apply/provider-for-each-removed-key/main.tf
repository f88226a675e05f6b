terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "keys" {
  type    = set(string)
  default = ["a", "b"]
}

variable "provider_keys" {
  type    = set(string)
  default = null
}

provider "ferrotest" {
  alias    = "each"
  for_each = var.provider_keys == null ? var.keys : var.provider_keys
  prefix   = "${each.key}-"
}

resource "ferrotest_thing" "t" {
  for_each = var.keys
  provider = ferrotest.each[each.key]
  value    = each.key
}
