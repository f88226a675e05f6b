variable "v" {
  default = "1"
}

resource "terraform_data" "a" {
  input = var.v
}

output "v" {
  value = terraform_data.a.input
}
