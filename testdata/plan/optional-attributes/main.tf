variable "service" {
  type = object({
    name    = string
    port    = optional(number, 8080)
    tags    = optional(map(string), {})
    enabled = optional(bool)
    listeners = optional(list(object({
      protocol = optional(string, "http")
      port     = number
    })), [])
  })
}

output "service" {
  value = var.service
}
