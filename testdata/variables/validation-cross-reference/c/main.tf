variable "mode" {
  type    = string
  default = "a"
}
variable "size" {
  type = number
  validation {
    condition     = var.mode != "prod" || var.size >= 3
    error_message = "In ${var.mode}, size must be at least 3 (got ${var.size})."
  }
}
variable "other" {
  type    = number
  default = 1
  validation {
    condition     = var.other <= local.max
    error_message = "Too big."
  }
}
locals {
  max = var.size * 2
}
output "size" { value = var.size }
variable "self_via_local" {
  type    = number
  default = 5
  validation {
    condition     = local.doubled == var.self_via_local * 2
    error_message = "Never."
  }
}
locals {
  doubled = var.self_via_local * 2
}
output "d" { value = local.doubled }
