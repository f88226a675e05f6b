terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "ids" {
  default = {
    x = "id-x"
    y = "id-y"
  }
}

import {
  to = ferrotest_thing.single
  id = "one"
}

resource "ferrotest_thing" "single" {
  value = "imported-one"
}

import {
  for_each = var.ids
  to       = ferrotest_thing.many[each.key]
  id       = each.value
}

resource "ferrotest_thing" "many" {
  for_each = var.ids
  value    = "set-by-config"
}
