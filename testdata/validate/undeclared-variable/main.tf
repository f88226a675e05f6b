resource "terraform_data" "a" {
  input = var.nope
}
