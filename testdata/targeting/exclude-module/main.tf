module "m" {
  source   = "./m"
  for_each = toset(["a", "b"])
  name     = each.key
}

resource "terraform_data" "uses_a" {
  input = module.m["a"].out
}

resource "terraform_data" "alone" {
  input = "alone"
}
