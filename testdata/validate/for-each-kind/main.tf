variable "name" {
  type = string
}

resource "terraform_data" "listed" {
  for_each = [var.name]
}

resource "terraform_data" "fine" {
  for_each = toset([var.name])
}
