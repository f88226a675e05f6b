variable "ok" {
  default = 1
}
