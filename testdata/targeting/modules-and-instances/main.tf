resource "terraform_data" "n" {
  count = 3
}
module "m" {
  source = "./m"
  count  = 2
  in     = terraform_data.n[0].id
}
output "all" { value = module.m[*].x }
