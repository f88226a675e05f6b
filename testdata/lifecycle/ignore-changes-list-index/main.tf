variable "first" {
  default = "a"
}

variable "second" {
  default = "b"
}

resource "terraform_data" "l" {
  input = tolist([var.first, var.second])

  lifecycle {
    ignore_changes = [input[0]]
  }
}
