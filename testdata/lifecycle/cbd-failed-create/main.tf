terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "r" {
  default = "1"
}

variable "fail" {
  default = null
}

resource "ferrotest_thing" "a" {
  value      = "v"
  replace    = var.r
  fail_apply = var.fail

  lifecycle {
    create_before_destroy = true
  }
}
