variable "v" {
  type = string
}
output "v" {
  value = var.v
}
