terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  prefix = "from-module-"
}

resource "ferrotest_thing" "a" {
  value = "v"
}

output "computed" {
  value = ferrotest_thing.a.computed
}
