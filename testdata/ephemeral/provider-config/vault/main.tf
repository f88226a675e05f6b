variable "length" {
  type = number
}

ephemeral "random_password" "token" {
  count  = 1
  length = var.length
}

output "token" {
  value     = ephemeral.random_password.token[0].result
  ephemeral = true
}
