variable "settings" {
  type    = any
  default = { test = {} }
}

output "empty_list" {
  value = convert([], list(string))
}

output "with_defaults" {
  value = convert(var.settings, map(object({
    attr         = optional(string)
    with_default = optional(string, "default")
  })))
}

output "numbers" {
  value = convert(["1", "2"], list(number))
}
