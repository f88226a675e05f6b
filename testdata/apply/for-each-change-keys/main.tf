variable "keys" {
  type    = set(string)
  default = ["a", "b"]
}

resource "terraform_data" "e" {
  for_each = var.keys
  input    = "key ${each.key}"
}
