terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "a" {
  value = "a"
  drift = "a changed"
}

resource "ferrotest_thing" "b" {
  value = "b"
  drift = "b changed"
}
