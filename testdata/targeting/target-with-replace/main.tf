resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}

resource "terraform_data" "c" {
  input = "c"
}
