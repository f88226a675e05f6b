terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "token" {
  type      = string
  ephemeral = true
}

variable "label" {
  type    = string
  default = "plain"
}

locals {
  # Locals may hold ephemeral values.
  header = "Bearer ${var.token}"
}

# A provider configuration may use them.
provider "ferrotest" {
  prefix = length(local.header) > 0 ? "p-" : "q-"
}

resource "ferrotest_thing" "kept" {
  value = var.label
}

module "child" {
  source = "./mod"
  secret = var.token
}

output "masked" {
  value = ephemeralasnull(local.header)
}

output "child_len" {
  value = module.child.length
}
