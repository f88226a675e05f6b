variable "on" {
  default = false
}

# Null: not kept in state, but listed in the plan (no-op), as Terraform lists it.
output "maybe" {
  value = var.on ? "yes" : null
}

output "always" {
  value = "x"
}
