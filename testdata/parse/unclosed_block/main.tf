variable "a" {
  default = {}
