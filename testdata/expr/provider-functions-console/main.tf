terraform {
  required_providers {
    ferrotest = {
      source = "terraform.io/builtin/ferrotest"
    }
    tf = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

variable "who" {
  type = string
}
