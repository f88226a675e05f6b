variable "token" {
  default   = "tok-123"
  sensitive = true
}

resource "terraform_data" "t" {
  input = var.token
}

output "token" {
  value     = terraform_data.t.output
  sensitive = true
}

output "plain" {
  value = "visible"
}
