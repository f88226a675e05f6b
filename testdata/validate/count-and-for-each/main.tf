resource "terraform_data" "a" {
  count    = 2
  for_each = toset(["a"])
}
