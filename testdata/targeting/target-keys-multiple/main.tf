resource "terraform_data" "e" {
  for_each = toset(["a", "b", "c"])
  input    = each.key
}

resource "terraform_data" "n" {
  count = 3
  input = count.index
}
