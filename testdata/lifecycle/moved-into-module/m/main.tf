variable "n" {
  default = 2
}

resource "terraform_data" "a" {
  input = "one"
}

resource "terraform_data" "b" {
  count = var.n
  input = "b${count.index}"
}
