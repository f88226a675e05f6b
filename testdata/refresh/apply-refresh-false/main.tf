terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "v" {
  default = "one"
}

resource "ferrotest_thing" "a" {
  value = var.v
  drift = "outside"
}

output "computed" {
  value = ferrotest_thing.a.computed
}
