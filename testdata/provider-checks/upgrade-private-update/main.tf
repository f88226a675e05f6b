terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "values" {
  type    = list(string)
  default = ["zero", "one"]
}

resource "ferrotest_thing" "c" {
  count   = 2
  value   = var.values[count.index]
  private = "tok-${count.index}"
}
