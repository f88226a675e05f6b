variable "l" {
  type    = list(string)
  default = []
}

output "l" {
  value = var.l
}
