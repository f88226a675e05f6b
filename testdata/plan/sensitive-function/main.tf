resource "terraform_data" "a" {
  input = {
    name = "web"
    key  = sensitive("abc123")
  }
}

output "whole" {
  value     = terraform_data.a.input
  sensitive = true
}

output "name" {
  value = terraform_data.a.input.name
}

output "unmarked" {
  value = nonsensitive(terraform_data.a.input.key)
}
