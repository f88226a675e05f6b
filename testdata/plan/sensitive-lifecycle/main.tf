variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

resource "terraform_data" "a" {
  input            = var.secret
  triggers_replace = { token = var.secret, plain = "visible" }
}

output "secret" {
  value     = terraform_data.a.output
  sensitive = true
}
