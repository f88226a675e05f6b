terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

import {
  to = ferrotest_thing.deep
  id = "deep"
}

resource "ferrotest_thing" "deep" {
  value = "imported-deep"
}
