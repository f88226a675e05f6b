variable "name" {
  type    = string
  default = "world"
}

locals {
  greeting = "hello, ${var.name}"
}

resource "terraform_data" "a" {
  input = local.greeting
}

output "out" {
  value = terraform_data.a.output
}
