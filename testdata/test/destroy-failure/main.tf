terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "terraform_data" "first" {
  input = "kept going"
}

resource "ferrotest_thing" "stuck" {
  value        = "x"
  fail_destroy = "the object is locked"
  depends_on   = [terraform_data.first]
}
