resource "terraform_data" "a" {
  input = "x"
}
