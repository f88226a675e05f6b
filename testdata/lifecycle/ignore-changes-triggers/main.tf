variable "v" {
  default = "1"
}

resource "terraform_data" "a" {
  input            = "in-${var.v}"
  triggers_replace = "t-${var.v}"

  lifecycle {
    ignore_changes = [triggers_replace]
  }
}
