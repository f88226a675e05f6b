variable "v" {}

resource "null_resource" "c" {
  triggers = { v = var.v }
}
