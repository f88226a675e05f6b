terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "a" {
  value = "app"
}

output "computed" {
  value = ferrotest_thing.a.computed
}
