terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "label" {
  type      = string
  ephemeral = true
  default   = "unused"
}

# Opened when the plan needs it and again at apply; never in state or the plan.
ephemeral "random_password" "db" {
  length  = 24
  special = false
}

# The use case: a provider configured with a secret fetched at run time.
provider "ferrotest" {
  password = ephemeral.random_password.db.result
  prefix   = "p-"
}

resource "ferrotest_thing" "app" {
  value = "app"

  # Conditions may use ephemeral values.
  lifecycle {
    precondition {
      condition     = local.token_length == 10
      error_message = "The module's token has the wrong length."
    }
  }
}

# A module whose output is ephemeral.
module "vault" {
  source = "./vault"
  length = 10
}

locals {
  token_length = length(module.vault.token)
}

output "token_is_null" {
  value = ephemeralasnull(nonsensitive(local.token_length)) == null
}
