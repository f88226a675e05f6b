terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "a" {
  value = "hello"
  drift = "changed outside"

  lifecycle {
    ignore_changes = [value]
  }
}
