# Terraform 1.12's short-circuit of && and || (HCL 2.23): a side that decides the result
# alone drops the other side's errors, so a null check guards the attribute access.
variable "x" {
  type = object({
    a = number
  })
  default = null

  validation {
    condition     = var.x == null || var.x.a > 0
    error_message = "x.a must be positive."
  }
}

variable "b" {
  type    = bool
  default = null
}

variable "s" {
  type      = bool
  default   = false
  sensitive = true
}

resource "terraform_data" "later" {
  input = "v"
}

locals {
  positive = var.x != null && var.x.a > 0
  missing  = var.x == null || var.x.a == 0
}

output "positive" {
  value = local.positive
}

output "missing" {
  value = local.missing
}

# An unknown left side that does not decide keeps the result unknown.
output "unknown_and" {
  value = terraform_data.later.output == "v" && length(var.x.a) > 0
}

output "unknown_or_true" {
  value = terraform_data.later.output == "v" || true
}

output "false_and_unknown" {
  value = false && terraform_data.later.output == "v"
}

# The sensitive operand marks the result even when the other side decides it.
output "sensitive_false" {
  value     = false && var.s
  sensitive = true
}

# Unset in the console: unknown.
variable "u" {
  type    = bool
}
