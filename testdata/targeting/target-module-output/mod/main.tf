variable "v" {}

resource "terraform_data" "used" {
  input = "used-${var.v}"
}

resource "terraform_data" "unused" {
  input = "unused-${var.v}"
}

output "out" {
  value = terraform_data.used.output
}
