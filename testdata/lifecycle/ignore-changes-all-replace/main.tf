variable "v" {
  default = "1"
}

resource "terraform_data" "a" {
  input            = var.v
  triggers_replace = var.v

  lifecycle {
    ignore_changes = all
  }
}
