resource "terraform_data" "a" {
  input = terraform_data.b.output
}
