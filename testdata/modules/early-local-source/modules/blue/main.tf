variable "name" {
  type = string
}

output "said" {
  value = "blue module says ${var.name}"
}
