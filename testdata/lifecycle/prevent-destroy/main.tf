variable "v" {
  default = "1"
}

resource "terraform_data" "kept" {
  triggers_replace = var.v

  lifecycle {
    prevent_destroy = true
  }
}
