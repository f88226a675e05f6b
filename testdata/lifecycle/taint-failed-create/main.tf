terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "fail" {
  default = true
}

resource "ferrotest_thing" "a" {
  value      = "v"
  fail_apply = var.fail ? "no space left" : null
}

resource "ferrotest_thing" "after" {
  value = ferrotest_thing.a.id
}
