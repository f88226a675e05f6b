resource "terraform_data" "r" {
  count = 2
  input = "item-${count.index}"
}
