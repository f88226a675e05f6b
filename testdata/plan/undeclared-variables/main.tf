variable "a" {
  default = 1
}
output "o" {
  value = null
}
output "p" {
  value = var.a
}
