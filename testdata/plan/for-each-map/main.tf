resource "terraform_data" "m" {
  for_each = {
    small = 1
    large = 10
  }
  input = each.value * 2
}
