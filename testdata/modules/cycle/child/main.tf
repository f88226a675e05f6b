variable "in" {}

output "out" {
  value = var.in
}
