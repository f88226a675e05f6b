variable "n" {
  default = 1
}

resource "terraform_data" "a" {
  count = var.n
  input = "item-${count.index}"
}

output "n" {
  value = length(terraform_data.a)
}
