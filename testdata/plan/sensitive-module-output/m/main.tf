variable "token" {
  type = string
}

output "token" {
  value     = "Bearer ${var.token}"
  sensitive = true
}

output "length" {
  value = length(var.token)
}
