resource "terraform_data" "x" {
  input = "in module"
}

resource "terraform_data" "y" {
  input = "also in module"
}
