variable "names" {
  type      = set(string)
  default   = ["a", "b"]
  sensitive = true
}

resource "terraform_data" "a" {
  for_each = var.names
  input    = each.key
}
