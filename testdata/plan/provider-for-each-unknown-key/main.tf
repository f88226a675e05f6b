terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  alias    = "each"
  for_each = toset(["a", "b"])
  prefix   = each.key
}

resource "ferrotest_thing" "t" {
  provider = ferrotest.each["c"]
  value    = "x"
}

resource "ferrotest_thing" "n" {
  provider = ferrotest.each[null]
  value    = "x"
}
