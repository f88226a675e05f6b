terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  for_each = toset(["a", "b"])
  prefix   = each.key
}

resource "ferrotest_thing" "t" {
  provider = ferrotest[0]
  value    = "x"
}
