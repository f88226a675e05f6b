resource "terraform_data" "r" {
  for_each = { a = "x", b = "y" }
  input    = each.value
}
