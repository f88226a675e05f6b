terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "break" {
  default = null
}

variable "value" {
  default = "first"
}

resource "ferrotest_thing" "a" {
  value = var.value
  break = var.break
}

resource "ferrotest_thing" "after" {
  value = ferrotest_thing.a.computed
}
