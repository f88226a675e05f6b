terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "value" {
  default = "configured"
}

resource "ferrotest_thing" "a" {
  value = var.value
  drift = "changed outside"
}
