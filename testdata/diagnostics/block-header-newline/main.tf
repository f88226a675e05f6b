resource "null_resource"
  "a" {
  triggers = {}
}

variable "skipped" {
  default = 1
}
