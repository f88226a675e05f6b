terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "x" {
  value = "configured"
  drift = "changed by hand"
}

output "value" {
  value = ferrotest_thing.x.value
}
