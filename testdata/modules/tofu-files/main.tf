resource "terraform_data" "a" {
  input = "from main.tf"
}
