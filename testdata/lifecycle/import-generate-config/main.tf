terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

import {
  to = ferrotest_thing.declared
  id = "one"
}

resource "ferrotest_thing" "declared" {
  value = "imported-one"
}

# No configuration: -generate-config-out writes it.
import {
  to = ferrotest_thing.generated
  id = "two"
}
