variable "v" {
  default = "1"
}

resource "terraform_data" "tainted" {
}

resource "terraform_data" "requested" {
}

resource "terraform_data" "cannot_update" {
  triggers_replace = var.v
}

resource "terraform_data" "source" {
  input = var.v
}

resource "terraform_data" "triggered" {
  lifecycle {
    replace_triggered_by = [terraform_data.source]
  }
}
