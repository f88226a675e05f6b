resource "terraform_data" "c" {
  input = "from only.tf"
}
