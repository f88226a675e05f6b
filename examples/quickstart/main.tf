# A first ferro configuration: only the built-in `terraform` provider, nothing to download.

variable "greeting" {
  type        = string
  default     = "hello"
  description = "What every instance says."
}

locals {
  names = toset(["alpha", "beta"])
}

resource "terraform_data" "base" {
  input = "${var.greeting}, world"
}

resource "terraform_data" "copies" {
  count = 2
  input = "${terraform_data.base.output} #${count.index}"
}

resource "terraform_data" "named" {
  for_each         = local.names
  input            = { name = each.key, from = terraform_data.base.id }
  triggers_replace = [each.value]
}

output "base_id" {
  value = terraform_data.base.id
}

output "copies" {
  value = terraform_data.copies[*].output
}
