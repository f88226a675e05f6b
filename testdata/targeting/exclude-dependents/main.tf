variable "v" {
  default = "1"
}

resource "terraform_data" "base" {
  input = var.v
}

resource "terraform_data" "mid" {
  input = terraform_data.base.output
}

resource "terraform_data" "top" {
  input = terraform_data.mid.output
}

resource "terraform_data" "other" {
  input = var.v
}

output "top" {
  value = terraform_data.top.output
}

output "other" {
  value = terraform_data.other.output
}
