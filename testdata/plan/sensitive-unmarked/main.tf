variable "secret" {
  default   = "hunter2"
  sensitive = true
}

resource "terraform_data" "a" {
  triggers_replace = tomap({ token = var.secret })
  input            = { token = var.secret }
}
