terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  alias = "second"
}

resource "ferrotest_thing" "default" {
  value = "default"
}

resource "ferrotest_thing" "aliased" {
  provider = ferrotest.second
  count    = 2
  value    = "aliased-${count.index}"
}

output "values" {
  value = ferrotest_thing.aliased[*].value
}
