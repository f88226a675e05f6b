terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "name" {
  type = string
}

# One import per instance of the module, each with that instance's variable.
import {
  to = ferrotest_thing.obj
  id = var.name
}

resource "ferrotest_thing" "obj" {
  value = "imported-${var.name}"
}
