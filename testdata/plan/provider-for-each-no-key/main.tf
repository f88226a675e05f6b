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

provider "ferrotest" {
  alias = "single"
}

resource "ferrotest_thing" "t" {
  provider = ferrotest.each
  value    = "x"
}

resource "ferrotest_thing" "u" {
  provider = ferrotest.single["a"]
  value    = "x"
}

module "m" {
  source = "./m"
  providers = {
    ferrotest = ferrotest.each
  }
}
