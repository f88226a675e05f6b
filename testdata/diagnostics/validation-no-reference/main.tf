variable "v" {
  type = string
  validation {
    condition     = length("abc") > 1
    error_message = "The value must be good."
  }
}
