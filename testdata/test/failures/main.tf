variable "size" {
  type = number

  validation {
    condition     = var.size > 0
    error_message = "The size must be positive."
  }
}

variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

resource "terraform_data" "a" {
  input = var.size * 2
}

output "double" {
  value = terraform_data.a.output

  precondition {
    condition     = var.size < 100
    error_message = "The size must stay below 100."
  }
}

check "small" {
  assert {
    condition     = var.size < 10
    error_message = "The size is not small."
  }
}

resource "terraform_data" "checked" {
  input = var.size * 2

  lifecycle {
    postcondition {
      condition     = self.output < 50
      error_message = "The doubled size must stay below 50."
    }
  }
}
