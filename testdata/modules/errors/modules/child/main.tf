variable "name" {
  type = string
}
output "out" {
  value = var.name
}
