variable "num" {
  type    = number
  default = 1
}

output "o" {
  value = var.num
}
