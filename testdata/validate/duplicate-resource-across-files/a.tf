resource "terraform_data" "same" {
  input = 1
}
