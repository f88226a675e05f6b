terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "b" {
  value = "base"
}

output "computed" {
  value = ferrotest_thing.b.computed
}
