terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "kept" {
  count = 2
  value = "k${count.index}"
  lifecycle {
    destroy = false
  }
}

resource "ferrotest_thing" "rep" {
  value   = "r"
  replace = "1"
  lifecycle {
    destroy = false
  }
}

resource "ferrotest_thing" "plain" {
  value = "p"
}
