variable "size" {
  type    = string
  default = "small"

  validation {
    condition     = contains(["small", "large", "enormous"], var.size)
    error_message = "The size ${jsonencode(var.size)} is not one of small, large or enormous."
  }

  validation {
    condition     = length(var.size) < 6
    error_message = <<-EOT
      The size must be shorter than six characters.
    EOT
  }
}

variable "other" {
  type    = string
  default = "x"

  validation {
    condition     = var.other != ""
    error_message = "The value must not be empty (size is ${var.size})."
  }
}

output "size" {
  value = var.size
}
