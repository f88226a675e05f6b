variable "name" {
  type = string
  validation {
    condition     = can(regex("^[a-z]+$", var.name))
    error_message = "The child name must be lower-case letters only."
  }
}

variable "secret" {
  type      = string
  sensitive = true
}

variable "tags" {
  type = object({
    team = string
    env  = optional(string, "dev")
  })
}

variable "size" {
  type    = number
  default = 3
}

resource "terraform_data" "r" {
  input = "${var.name}-${var.tags.team}-${var.tags.env}-${var.size}"
}

output "greeting" {
  value = terraform_data.r.input
}

output "secret" {
  value     = var.secret
  sensitive = true
}

output "where" {
  value = path.module
}
