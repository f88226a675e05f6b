terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "x" {
  value = "x"
  lifecycle {
    destroy = false
  }
}

resource "ferrotest_thing" "y" {
  value = "y"
  lifecycle {
    destroy = false
  }
}
