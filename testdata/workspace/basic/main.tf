resource "terraform_data" "a" {
  input = terraform.workspace
}

output "ws" {
  value = terraform.workspace
}
