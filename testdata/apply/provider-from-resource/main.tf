terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "base" {
  value = "base"
}

# This configuration refers to a resource: it is configured once that resource is planned
# (and, in apply, applied), so its resources see the known value.
provider "ferrotest" {
  alias  = "derived"
  prefix = "${ferrotest_thing.base.computed}/"
}

resource "ferrotest_thing" "user" {
  provider = ferrotest.derived
  value    = "user"
}

output "user" {
  value = ferrotest_thing.user.computed
}
