variable "colour" {
  type    = string
  default = "blue"
}

locals {
  dir = "./modules/${var.colour}"
}

module "paint" {
  source = local.dir
  name   = var.colour
}

module "direct" {
  source = "./modules/${var.colour}"
  name   = "direct"
}

output "paint" {
  value = module.paint.said
}
