terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "gen" {
  default = "1"
}

resource "ferrotest_thing" "a" {
  value   = "wanted"
  drift   = "changed outside"
  replace = var.gen
}
