variable "n" {
  default   = 2
  sensitive = true
}

resource "terraform_data" "a" {
  count = var.n
  input = "item-${count.index}"
}

output "ids" {
  value = length(terraform_data.a)
}
