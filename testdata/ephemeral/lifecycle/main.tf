terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "names" {
  type    = set(string)
  default = ["a", "b"]
}

# Each instance asks to be renewed at once and wants its renewed private data when closed.
ephemeral "ferrotest_token" "t" {
  for_each = var.names
  name     = each.key

  lifecycle {
    postcondition {
      condition     = self.secret == "token-for-${each.key}"
      error_message = "Wrong token."
    }
  }
}

provider "ferrotest" {
}

# A second configuration of the provider that opened the token, configured with it.
provider "ferrotest" {
  alias    = "auth"
  password = ephemeral.ferrotest_token.t["a"].secret
}

resource "ferrotest_thing" "x" {
  provider = ferrotest.auth
  value    = "x"
}
