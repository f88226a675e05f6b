terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "name" {
  type = string
}

resource "ferrotest_thing" "x" {
  value = var.name
}

output "computed" {
  value = ferrotest_thing.x.computed
}
