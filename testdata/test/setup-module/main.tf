variable "name" {
  type = string
}

resource "terraform_data" "bucket" {
  input = "bucket-${var.name}"
}

resource "terraform_data" "other" {
  input = "other"
}

output "bucket" {
  value = terraform_data.bucket.output
}
