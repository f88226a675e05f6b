import {
  to = ferrotest_named.a
  identity = {
    name = "alpha"
    zone = "eu"
  }
}

resource "ferrotest_named" "a" {
  name  = "alpha"
  zone  = "eu"
  value = "imported-alpha"
}

import {
  for_each = toset(["x", "y"])
  to       = ferrotest_named.many[each.key]
  identity = {
    name = each.key
  }
}

resource "ferrotest_named" "many" {
  for_each = toset(["x", "y"])
  name     = each.key
  value    = "changed-${each.key}"
}
