variable "size" {
  default = 3
}

resource "terraform_data" "a" {
  count = 2
  input = var.size * (count.index + 1)

  lifecycle {
    precondition {
      condition     = var.size > 0
      error_message = "The size must be positive."
    }
    postcondition {
      condition     = self.input < 10
      error_message = "Instance ${count.index} would be too large: ${self.input}."
    }
  }
}

output "total" {
  value = sum(terraform_data.a[*].input)

  precondition {
    condition     = length(terraform_data.a) == 2
    error_message = "Expected two instances."
  }
}

output "size" {
  value = var.size

  precondition {
    condition     = var.size < 5
    error_message = "The size must stay below 5, not ${var.size}."
  }
}
