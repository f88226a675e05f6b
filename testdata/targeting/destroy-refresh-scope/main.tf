resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = terraform_data.a.id
}

resource "terraform_data" "c" {
  input = terraform_data.b.id
}

resource "terraform_data" "d" {
  input = "d"
}
