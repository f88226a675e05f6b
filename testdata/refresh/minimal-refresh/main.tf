terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "a" {
  value = "hello"
  drift = "changed outside"
}

resource "ferrotest_thing" "b" {
  count = 2
  value = "steady"
}
