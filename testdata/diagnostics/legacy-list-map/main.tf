variable "b" {
  type    = list
  default = []
}
variable "c" {
  type    = map
  default = {}
}
output "o" {
  value = [var.b, var.c]
}
