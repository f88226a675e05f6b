variable "name" {}

resource "terraform_data" "r" {
  input = var.name
}
