terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "r" {
  default = "1"
}

variable "fail" {
  default = false
}

resource "ferrotest_thing" "a" {
  value      = "v"
  replace    = var.r
  fail_apply = var.fail ? "boom" : null

  lifecycle {
    create_before_destroy = true
  }
}
