resource "terraform_data" "y" {
  input = "y"
}
