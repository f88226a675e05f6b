terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "input" {
  type = string
}

resource "ferrotest_thing" "first" {
  value = "first"
}

resource "ferrotest_thing" "second" {
  value = var.input
}

output "first" {
  value = ferrotest_thing.first.computed
}

output "second" {
  value = ferrotest_thing.second.computed
}
