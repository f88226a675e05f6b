variable "db" {
  type = object({
    name = string
    auth = object({
      user     = string
      password = string
    })
  })
  default = {
    name = "main"
    auth = {
      user     = "admin"
      password = "hunter2"
    }
  }
}

locals {
  db = {
    name = var.db.name
    auth = {
      user     = var.db.auth.user
      password = sensitive(var.db.auth.password)
    }
  }
}

resource "terraform_data" "a" {
  input = local.db
}

output "user" {
  value = terraform_data.a.input.auth.user
}
