variable "zone" {
  type = string
}

# Valid: the identity's values may be unknown before planning.
import {
  to = ferrotest_named.a
  identity = {
    name = "alpha"
    zone = var.zone
  }
}

resource "ferrotest_named" "a" {
  name = "alpha"
}
