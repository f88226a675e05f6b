terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "prefix" {
  type = string
}

locals {
  ids = {
    first  = "id-a"
    second = "id-b"
  }
}

# `to` is relative to this module; the id comes from this module's variable.
import {
  to = ferrotest_thing.single
  id = "${var.prefix}-single"
}

resource "ferrotest_thing" "single" {
  value = "imported-prefix-single"
}

import {
  for_each = local.ids
  to       = ferrotest_thing.many[each.key]
  id       = each.value
}

resource "ferrotest_thing" "many" {
  for_each = local.ids
  value    = "set-by-child"
}

module "kinder" {
  source = "./kinder"
}
