terraform {
  required_providers {
    ferrotest = {
      source = "terraform.io/builtin/ferrotest"
    }
  }
}

locals {
  wrong_type   = provider::ferrotest::greet([1, 2])
  null_arg     = provider::ferrotest::greet(null)
  missing      = provider::ferrotest::greet()
  too_many     = provider::ferrotest::greet("a", "b")
  no_function  = provider::ferrotest::nosuch(1)
}
