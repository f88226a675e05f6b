variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

resource "terraform_data" "a" {
  input = var.secret
}

output "secret" {
  value     = var.secret
  sensitive = true
}
