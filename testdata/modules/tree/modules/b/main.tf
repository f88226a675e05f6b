variable "v" {}
resource "terraform_data" "y" {
  input = var.v
}
output "out" {
  value = terraform_data.y.output
}
