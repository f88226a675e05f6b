variable "n" {
  type = number
}

output "n" {
  value = var.n
}
