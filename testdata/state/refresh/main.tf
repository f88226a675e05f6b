resource "terraform_data" "a" {
  input = "x"
}

output "greeting" {
  value = "hello"
}
