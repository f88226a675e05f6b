resource "terraform_data" "a" {
  input = { list = [1, 2], flag = false }
}

output "o" {
  value = terraform_data.a.output.list
}
