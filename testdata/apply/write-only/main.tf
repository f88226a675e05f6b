terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "password" {
  type      = string
  ephemeral = true
}

variable "password_version" {
  type    = number
  default = 1
}

# A write-only attribute takes an ephemeral value: it reaches the provider and is never stored.
resource "ferrotest_secret" "db" {
  value             = "db"
  secret_wo         = var.password
  secret_wo_version = var.password_version
}
