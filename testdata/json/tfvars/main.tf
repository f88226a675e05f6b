variable "a" {
  type = string
}
variable "b" {
  type = list(number)
}
variable "c" {
  type = map(string)
  default = {}
}
output "values" {
  value = [var.a, var.b, var.c]
}
