variable "n" {
  type = number
}
