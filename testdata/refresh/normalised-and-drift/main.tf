terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "drift" {
  default = null
}

resource "ferrotest_thing" "n" {
  value      = "v"
  normalized = "MiXeD Case"
  drift      = var.drift
}
