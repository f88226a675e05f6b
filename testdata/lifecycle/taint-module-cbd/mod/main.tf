resource "terraform_data" "x" {
  input = "x"

  lifecycle {
    create_before_destroy = true
  }
}

output "id" {
  value = terraform_data.x.id
}
