terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  alias = "alt"
}

resource "ferrotest_thing" "a" {
  provider = ferrotest.alt
  value    = "through the alias"
}

resource "ferrotest_thing" "b" {
  value = "default configuration"
}
