terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "keep" {
  value = "kept"
}

resource "ferrotest_thing" "gone" {
  count = 2
  value = "gone-${count.index}"
}

resource "ferrotest_thing" "destroyed" {
  value = "destroyed"
}
