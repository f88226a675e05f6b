variable "names" {
  default = ["a", "b"]
}

resource "terraform_data" "base" {
  for_each = toset(var.names)
  input    = "base-${each.key}"
}

resource "terraform_data" "top" {
  for_each = terraform_data.base
  input    = each.value.output
}

output "tops" {
  value = { for k, v in terraform_data.top : k => v.output }
}

output "count" {
  value = length(terraform_data.base)
}
