variable "v" {
  type    = string
  default = "base"
}

locals {
  l = "base"
}

resource "null_resource" "a" {}

output "o" {
  value = "${var.v}/${local.l}"
}
