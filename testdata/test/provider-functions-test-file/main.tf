terraform {
  required_providers {
    ferrotest = {
      source = "terraform.io/builtin/ferrotest"
    }
  }
}

variable "who" {
  type    = string
  default = "module"
}

output "who" {
  value = var.who
}
