resource "terraform_data" "a" {
  input = "one"
}

resource "terraform_data" "b" {
  count = 2
  input = "b${count.index}"
}
