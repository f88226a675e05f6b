module "m" {
  source = "./mod"
}

resource "terraform_data" "user" {
  input = module.m.id
}
