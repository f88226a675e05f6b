resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}

resource "terraform_data" "c" {
  count = 2
  input = "c${count.index}"
}

resource "terraform_data" "d" {
  input = "d"
}
