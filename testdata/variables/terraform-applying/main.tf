terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

locals {
  # Ephemeral, true only while applying: a provider may be configured differently then.
  phase = terraform.applying ? "apply-" : "plan-"
}

provider "ferrotest" {
  prefix = local.phase
}

resource "ferrotest_thing" "a" {
  value = "x"
}

output "computed" {
  value = ferrotest_thing.a.computed
}
