terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

ephemeral "random_password" "db" {
  length = 16
}
