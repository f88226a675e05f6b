variable "name" {
  type = string
}

resource "terraform_data" "a" {
  input = var.name
}

output "name" {
  value = terraform_data.a.output
}
