variable "input" {
  type = string
}

variable "n" {
  type    = number
  default = 0
}

resource "terraform_data" "x" {
  input = var.input
}

output "out" {
  value = "${var.input}-${var.n}"
}
