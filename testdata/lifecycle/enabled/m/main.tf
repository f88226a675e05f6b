terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "in" {
  value = "inside"
}

output "v" {
  value = ferrotest_thing.in.value
}
