variable "n" {
  default = 3
}

resource "terraform_data" "c" {
  count = var.n
  input = count.index

  lifecycle {
    prevent_destroy = true
  }
}
