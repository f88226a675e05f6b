variable "name" {}

resource "terraform_data" "x" {
  input = var.name
}

resource "terraform_data" "y" {
  input = terraform_data.x.output
}

output "id" {
  value = terraform_data.x.id
}
