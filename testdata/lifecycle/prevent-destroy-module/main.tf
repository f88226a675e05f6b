module "m" {
  source = "./m"
}

resource "terraform_data" "other" {
  input = "x"
}
