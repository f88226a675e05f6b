variable "v" {}

resource "terraform_data" "c" {
  input = var.v
}
