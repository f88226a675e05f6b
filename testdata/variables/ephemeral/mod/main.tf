variable "secret" {
  type      = string
  ephemeral = true
}

output "passed" {
  value     = var.secret
  ephemeral = true
}

output "length" {
  value = ephemeralasnull(length(var.secret))
}
