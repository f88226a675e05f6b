terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "a" {
  value = "configured"
  drift = "changed outside"

  lifecycle {
    ignore_changes = all
  }
}
