resource "terraform_data" "n" {
  count = 3
  input = "n${count.index}"
}

resource "terraform_data" "uses" {
  count = 3
  input = terraform_data.n[count.index].id
}
