terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "a" {
  count = 2
  value = "a${count.index}"
}

resource "ferrotest_thing" "b" {
  value = "b"
}
