variable "v" {
  default = "x"
}

resource "terraform_data" "a" {
  input = var.v
}
