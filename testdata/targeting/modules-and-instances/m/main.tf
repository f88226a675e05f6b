variable "in" {}
resource "terraform_data" "x" {
  input = var.in
}
output "x" { value = terraform_data.x.id }
