terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "v" {
  default = "x"
}

variable "r" {
  default = "1"
}

resource "ferrotest_thing" "a" {
  value   = var.v
  replace = var.r
}
