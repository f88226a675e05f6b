variable "x" {}
variable "x" {}
