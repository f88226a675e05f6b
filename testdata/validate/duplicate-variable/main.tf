variable "x" {}

variable "x" {}
