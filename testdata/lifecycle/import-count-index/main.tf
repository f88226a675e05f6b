terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "c" {
  count = 3
  value = "imported-id-${count.index}"
}

import {
  to = ferrotest_thing.c[1]
  id = "id-1"
}
