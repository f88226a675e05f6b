resource "terraform_data" "a" {
  input = each.key
}
