variable "count_of" {
  type    = number
  default = "three"
}

variable "legacy" {
  type = "string"
}

module "inner" {
  source = "./modules/inner"
}

module "inner" {
  source = "./modules/inner"
}

module "registry" {
  source  = "hashicorp/consul/aws"
  version = "not a version"
}
