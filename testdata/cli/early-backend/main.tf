variable "env" {
  type    = string
  default = "dev"
}

locals {
  state_dir = "states/${var.env}"
}

terraform {
  backend "local" {
    path = "${local.state_dir}/terraform.tfstate"
  }
}

output "env" {
  value = var.env
}
