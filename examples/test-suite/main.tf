# A small module with a test suite: `ferro test` in this directory runs tests/*.tftest.hcl.
# terraform_data and random_pet come with ferro; acme/dns is not installed anywhere, and the
# tests give it a mock_provider instead.

terraform {
  required_providers {
    dns = { source = "example.com/acme/dns" }
  }
}

variable "service" {
  type = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*$", var.service))
    error_message = "The service name must be lower-case letters, digits and dashes."
  }
}

variable "replicas" {
  type    = number
  default = 2
}

resource "random_pet" "suffix" {
  length = 2
}

resource "terraform_data" "replica" {
  count = var.replicas
  input = "${var.service}-${random_pet.suffix.id}-${count.index}"
}

resource "dns_record" "service" {
  name    = var.service
  targets = terraform_data.replica[*].output
}

output "hosts" {
  value = terraform_data.replica[*].output
}

output "fqdn" {
  value = dns_record.service.fqdn
}
