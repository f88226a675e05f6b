terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "base" {
  value = "base"
}

resource "ferrotest_thing" "each" {
  for_each = toset([ferrotest_thing.base.computed])
  value    = each.key
}

resource "ferrotest_thing" "elsewhere" {
  value = "elsewhere"
}
