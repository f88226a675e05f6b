terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "value" {
  default = "one"
}

variable "fail" {
  default = null
}

resource "ferrotest_thing" "a" {
  value      = var.value
  fail_apply = var.fail
}
