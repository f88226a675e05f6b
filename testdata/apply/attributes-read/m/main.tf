variable "value" {
  type = string
}

output "value" {
  value = "from module: ${var.value}"
}
