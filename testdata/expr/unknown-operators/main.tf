# Variables without values are unknown in the console, as in Terraform.
variable "u" {
  type = number
}

variable "b" {
  type = bool
}

variable "str" {
  type = string
}

variable "nums" {
  type = list(number)
}
