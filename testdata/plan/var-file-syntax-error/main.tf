variable "a" {
  type = number
}

output "o" {
  value = var.a
}
