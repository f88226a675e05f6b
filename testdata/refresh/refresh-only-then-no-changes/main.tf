terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "value" {
  default = "original"
}

resource "ferrotest_thing" "a" {
  value = var.value
  drift = "changed outside"
}

output "value" {
  value = ferrotest_thing.a.value
}
