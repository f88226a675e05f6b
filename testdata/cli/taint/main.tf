resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "c" {
  count = 2
  input = count.index
}
