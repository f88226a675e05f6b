resource "terraform_data" "here" {}

module "inner" {
  source = "./inner"
  count  = 2
}
