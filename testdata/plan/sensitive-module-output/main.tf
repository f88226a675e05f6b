module "m" {
  source = "./m"
  token  = "abc"
}

resource "terraform_data" "a" {
  input = {
    header = module.m.token
    length = module.m.length
  }
}

output "header" {
  value     = module.m.token
  sensitive = true
}
