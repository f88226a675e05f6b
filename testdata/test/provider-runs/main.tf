terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "value" {
  type    = string
  default = "v"
}

resource "ferrotest_thing" "a" {
  value = var.value
}

output "value" {
  value = ferrotest_thing.a.value
}

output "computed" {
  value = ferrotest_thing.a.computed
}
