variable "n" {
  default = 3
}

resource "terraform_data" "r" {
  count = var.n
  input = "n${count.index}"
}

output "ids" {
  value = length(terraform_data.r[*].id)
}
