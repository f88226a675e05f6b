variable "v" {
  default = "1"
}

resource "terraform_data" "base" {}

resource "terraform_data" "mid" {
  input = terraform_data.base.id
}

resource "terraform_data" "via_mid" {
  input = "${terraform_data.mid.id}-${var.v}"
}
