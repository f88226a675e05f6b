module "m" {
  source = "./m"
}

resource "terraform_data" "root" {
  input = "root"
}
