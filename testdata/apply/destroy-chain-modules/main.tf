resource "terraform_data" "base" {
  input = "base"
}

module "m" {
  source = "./m"
  input  = terraform_data.base.output
}

resource "terraform_data" "top" {
  input = module.m.out
}

output "top" {
  value = terraform_data.top.output
}
