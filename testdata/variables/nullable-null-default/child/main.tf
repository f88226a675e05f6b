variable "size" {
  type     = string
  default  = "small"
  nullable = false
}

variable "label" {
  type    = string
  default = "none"
}

output "size" {
  value = var.size
}

output "label_is_null" {
  value = var.label == null
}
