terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  prefix = ferrotest_thing.t.computed
}

resource "ferrotest_thing" "t" {
  value = "t"
}
