variable "old" {
  type       = string
  default    = null
  deprecated = "Set \"fresh\" instead."
}

variable "fresh" {
  type = string
}

output "legacy" {
  value      = "l"
  deprecated = "Use the output \"current\"."
}

output "current" {
  value = var.fresh
}
