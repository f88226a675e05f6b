variable "size" {
  default = 2
}

resource "terraform_data" "limits" {
  input = var.size
}

resource "terraform_data" "app" {
  input = "app of size ${var.size}"

  lifecycle {
    precondition {
      condition     = terraform_data.limits.output < 5
      error_message = "The size must be below 5, got ${terraform_data.limits.output}."
    }
  }
}
