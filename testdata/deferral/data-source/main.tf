terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "base" {
  value = "x"
}

resource "ferrotest_thing" "each" {
  for_each = toset([ferrotest_thing.base.computed])
  value    = each.key
}

# Reads after what it depends on: deferred with it.
data "terraform_remote_state" "after" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  depends_on = [ferrotest_thing.each]
}

# Read now: it depends on nothing deferred.
data "terraform_remote_state" "now" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
}

resource "ferrotest_thing" "greets" {
  value = data.terraform_remote_state.after.outputs.greeting
}

output "now" {
  value = data.terraform_remote_state.now.outputs.greeting
}

# Its for_each is unknown: deferred with the wildcard key.
data "terraform_remote_state" "each" {
  for_each = toset([ferrotest_thing.base.computed])
  backend  = "local"
  config = {
    path = "other.tfstate"
  }
}
