variable "plain" {
  default = "visible"
}

resource "terraform_data" "a" {
  input = nonsensitive(var.plain)
}
