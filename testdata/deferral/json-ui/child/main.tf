terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "name" {}

resource "ferrotest_thing" "inner" {
  value = var.name
}

resource "ferrotest_thing" "counted" {
  count = 2
  value = "${var.name}-${count.index}"
}

output "out" {
  value = ferrotest_thing.inner.computed
}
