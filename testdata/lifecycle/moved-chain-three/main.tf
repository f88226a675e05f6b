resource "terraform_data" "first" {
  input = "kept"
}
