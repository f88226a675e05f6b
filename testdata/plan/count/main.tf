variable "n" {
  default = 3
}

resource "terraform_data" "c" {
  count = var.n
  input = "item-${count.index}"
}
