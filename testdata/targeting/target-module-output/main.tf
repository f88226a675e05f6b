variable "v" {
  default = "1"
}

module "m" {
  source = "./mod"
  v      = var.v
}

resource "terraform_data" "consumer" {
  input = module.m.out
}

resource "terraform_data" "other" {
  input = var.v
}

output "consumer" {
  value = terraform_data.consumer.output
}
