variable "n" {
  default   = 5
  sensitive = true
}

variable "b" {
  default   = true
  sensitive = true
}

variable "str" {
  default   = "Secret"
  sensitive = true
}

variable "nums" {
  type      = list(number)
  default   = [3, 1, 2]
  sensitive = true
}
