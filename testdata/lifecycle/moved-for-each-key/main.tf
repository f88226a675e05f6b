resource "terraform_data" "site" {
  for_each = toset(["blue", "green"])
  input    = each.key
}
