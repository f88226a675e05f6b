locals {
  name = "overridden"
}

variable "size" {
  default = "large"
}

resource "terraform_data" "a" {
  input = "over"
}

module "child" {
  v = "over"
}
