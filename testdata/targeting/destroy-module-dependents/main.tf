module "m" {
  source = "./m"
}

resource "terraform_data" "uses" {
  input = module.m.out
}

resource "terraform_data" "alone" {
  input = "alone"
}
