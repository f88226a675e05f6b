variable "n" {
  type    = number
  default = "abc"
}

resource "terraform_data" "a" {
  input = var.missing
}

resource "terraform_data" "b" {
  input = [1, 2
}
