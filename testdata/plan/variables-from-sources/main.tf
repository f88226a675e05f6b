variable "a" {}
variable "b" {}
variable "c" {}
variable "d" {
  type = number
}

output "all" {
  value = "${var.a} ${var.b} ${var.c} ${var.d + 1}"
}
