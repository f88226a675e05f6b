variable "name" {
  type = string
}

output "said" {
  value = "green module says ${var.name}"
}
