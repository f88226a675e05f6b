terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "value" {
  default = "first"
}

variable "gen" {
  default = "1"
}

resource "ferrotest_thing" "a" {
  value   = var.value
  replace = var.gen

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [value]
  }
}
