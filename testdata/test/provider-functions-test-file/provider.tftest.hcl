# Terraform 1.13 decodes a test file's provider blocks with its built-in functions only.
provider "ferrotest" {
  prefix = provider::ferrotest::greet("block")
}

run "configured" {
  command = plan
}
