resource "terraform_data" "inner" {
  input = "inner"
}

output "out" {
  value = terraform_data.inner.output
}
