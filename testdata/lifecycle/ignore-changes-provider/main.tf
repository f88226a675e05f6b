terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "val" {
  default = "v1"
}

variable "rep" {
  default = "r1"
}

resource "ferrotest_thing" "a" {
  value   = var.val
  replace = var.rep

  lifecycle {
    ignore_changes = [value]
  }
}

output "computed" {
  value = ferrotest_thing.a.computed
}
