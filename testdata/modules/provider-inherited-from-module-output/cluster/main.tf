terraform {
  required_providers {
    ferrotest = {
      source                = "terraform.io/builtin/ferrotest"
      configuration_aliases = [ferrotest.plain]
    }
  }
}

resource "ferrotest_thing" "cluster" {
  provider = ferrotest.plain
  value    = "cluster"
}

resource "ferrotest_thing" "auth" {
  value = "auth"
}

output "endpoint" {
  value = ferrotest_thing.cluster.computed
}

output "auth" {
  value = ferrotest_thing.auth.computed
}
