variable "name" {
  type = string
  validation {
    condition     = length(var.name) > 3
    error_message = "The name must be longer than 3 characters."
  }
}

variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter2"
}

module "child" {
  source = "./child"
  name   = var.name
  secret = var.secret
  tags   = { team = "infra" }
}

output "greeting" {
  value = module.child.greeting
}

output "secret" {
  value     = module.child.secret
  sensitive = true
}

output "module_path" {
  value = module.child.where
}
