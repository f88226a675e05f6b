resource "terraform_data" "e" {
  for_each = toset(["a", "b"])
  input    = each.key
}

module "m" {
  source = "./m"
  count  = 2
}
