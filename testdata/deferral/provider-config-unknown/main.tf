terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "base" {
  value = "base"
}

# Refers to a resource that is not applied yet: unknown while planning.
provider "ferrotest" {
  alias  = "derived"
  prefix = "${ferrotest_thing.base.computed}/"
}

resource "ferrotest_thing" "user" {
  provider = ferrotest.derived
  count    = 2
  value    = "user-${count.index}"
}

resource "ferrotest_thing" "after_user" {
  value = ferrotest_thing.user[0].computed
}

output "user" {
  value = ferrotest_thing.user[*].computed
}
