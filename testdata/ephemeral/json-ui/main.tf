terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

# Asks to be renewed at once: opened, renewed and closed in each phase.
ephemeral "ferrotest_token" "t" {
  name = "a"
}

provider "ferrotest" {
  alias    = "auth"
  password = ephemeral.ferrotest_token.t.secret
}

resource "ferrotest_thing" "x" {
  provider = ferrotest.auth
  value    = "x"
}
