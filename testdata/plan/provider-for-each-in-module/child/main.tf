terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  alias    = "each"
  for_each = toset(["a"])
  prefix   = each.key
}

resource "ferrotest_thing" "t" {
  provider = ferrotest.each["a"]
  value    = "x"
}
