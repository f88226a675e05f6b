terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

# What the child's import id is made of comes from a resource planned here.
resource "ferrotest_thing" "src" {
  value = "prefix"
}

module "child" {
  source = "./child"
  prefix = ferrotest_thing.src.value
}
