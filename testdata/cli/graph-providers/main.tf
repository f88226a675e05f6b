variable "tag" {
  default = "t"
}
provider "null" {
  alias = "alt"
}
module "a" {
  source = "./a"
  count  = 2
  tag    = var.tag
  providers = {
    null = null.alt
  }
}
module "plain" {
  source     = "./a/b"
  depends_on = [module.a]
}
output "all" {
  value = module.a
}
