resource "terraform_data" "a" {
  input = 1
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}
