provider "null" {}
module "m" {
  source = "./m"
  providers = {
    "null" = "null"
  }
}
