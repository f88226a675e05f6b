variable "suffix" {
  default = "1"
}

resource "terraform_data" "base" {
  for_each = toset(["x", "y"])
  input    = "${each.key}-${var.suffix}"
}

resource "terraform_data" "dep" {
  for_each = terraform_data.base
  input    = each.value.output
}
