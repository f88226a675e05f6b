resource "terraform_data" "x" {
  input = "in module"
}
