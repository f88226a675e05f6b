terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "base" {
  value = "base"
}

provider "ferrotest" {
  alias  = "derived"
  prefix = "${ferrotest_thing.base.computed}/"
}

resource "ferrotest_thing" "imported" {
  provider = ferrotest.derived
  value    = "imported-x"
}
