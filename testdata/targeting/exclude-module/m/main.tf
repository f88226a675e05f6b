variable "name" {
}

resource "terraform_data" "x" {
  input = var.name
}

output "out" {
  value = terraform_data.x.output
}
