terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "regions" {
  type    = map(string)
  default = { east = "E-", west = "W-" }
}

locals {
  regions = var.regions
}

# One configuration instance per region, each with its own prefix.
provider "ferrotest" {
  alias    = "by_region"
  for_each = local.regions
  prefix   = each.value
}

resource "ferrotest_thing" "per_region" {
  for_each = local.regions
  provider = ferrotest.by_region[each.key]
  value    = each.key
}

resource "ferrotest_thing" "west_only" {
  provider = ferrotest.by_region["west"]
  value    = "literal key"
}

output "computed" {
  value = { for k, r in ferrotest_thing.per_region : k => r.computed }
}

output "west_only" {
  value = ferrotest_thing.west_only.computed
}
