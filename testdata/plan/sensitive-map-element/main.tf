variable "password" {
  type      = string
  default   = "s3cret"
  sensitive = true
}

locals {
  settings = {
    user     = "admin"
    password = var.password
  }
}

resource "terraform_data" "a" {
  input = local.settings
}

output "user" {
  value = local.settings["user"]
}

output "user_from_resource" {
  value = terraform_data.a.input["user"]
}
