variable "n" {
  type = number
}

variable "o" {
  type = object({ a = string })
}

variable "fine" {
  type = list(string)
}
