resource "terraform_data" "c" {
  count = 2
  input = count.index
}

resource "terraform_data" "e" {
  for_each = toset(["a", "b"])
  input    = each.key
}

module "m" {
  source = "./m"
}

resource "terraform_data" "d" {
  triggers_replace = terraform_data.c[0].id
}
