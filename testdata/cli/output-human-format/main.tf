variable "names" {
  type    = list(string)
  default = ["x", "y"]
}

variable "sizes" {
  type    = map(number)
  default = { small = 1, "very large" = 100 }
}

output "obj" {
  value = { a = 1, bbb = { c = true, dd = [1, "two"] } }
}

output "map" {
  value = var.sizes
}

output "list" {
  value = var.names
}

output "set" {
  value = toset(var.names)
}

output "text" {
  value = "line one\nline two\n"
}

output "empty" {
  value = {}
}

output "secret" {
  value     = "hidden"
  sensitive = true
}
