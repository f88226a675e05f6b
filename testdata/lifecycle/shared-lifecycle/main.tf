terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "secret" {
  default   = "hunter2"
  sensitive = true
}

resource "ferrotest_thing" "a" {
  value      = "first"
  normalized = "x"

  lifecycle {
    ignore_changes = [value]
  }
}

resource "terraform_data" "m" {
  input = {
    plain  = "visible"
    hidden = var.secret
  }
}

output "plain" {
  value = terraform_data.m.output.plain
}
