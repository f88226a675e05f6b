variable "a" {
  type = "string"
}
variable "b" {
  type = "list"
}
variable "c" {
  type = "map"
}
variable "d" {
  type = list
}
variable "e" {
  type = map
}
variable "f" {
  type = set
}
variable "g" {
  type = "${string}"
}
variable "h" {
  type = list(string)
  default = "${var.x}"
}
locals {
  type = "string"
}
variable "i" {
  validation {
    type = "string"
  }
}
