terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

locals {
  ids = toset(["p", "q"])
}

import {
  for_each = local.ids
  to       = ferrotest_thing.t[each.value]
  id       = "id-${each.key}"
}

resource "ferrotest_thing" "t" {
  for_each = local.ids
  value    = "imported-id-${each.key}"
}
