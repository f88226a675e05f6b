variable "size" {
  type    = string
  default = "small"
}

locals {
  name  = "base"
  other = "kept"
}

resource "terraform_data" "a" {
  input = "base"

  lifecycle {
    create_before_destroy = false
  }
}

module "child" {
  source = "./child"
  v      = "base"
}

output "name" {
  value = "${local.name}/${local.other}"
}

output "size" {
  value = var.size
}

output "child" {
  value = module.child.v
}

output "input" {
  value = terraform_data.a.input
}
