variable "m" {
  type = map(string)
  default = {
    a = "1"
    b = "2"
    c = "3"
  }
}

resource "terraform_data" "r" {
  for_each = var.m
  input    = each.value
}

output "keys" {
  value = keys(terraform_data.r)
}
