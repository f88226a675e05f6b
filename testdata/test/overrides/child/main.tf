variable "label" {
  type = string
}

resource "terraform_data" "inner" {
  input = var.label
}

output "id" {
  value = terraform_data.inner.id
}

output "tags" {
  value = { label = var.label }
}
