terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "r" {
  default = "1"
}

variable "fail" {
  default = null
}

resource "ferrotest_thing" "a" {
  value   = "a"
  replace = var.r
}

resource "ferrotest_thing" "b" {
  value      = "b"
  replace    = ferrotest_thing.a.id
  fail_apply = var.fail
}

# c is create_before_destroy, so b and a (which it depends on) are replaced that way too.
resource "ferrotest_thing" "c" {
  value   = "c"
  replace = ferrotest_thing.b.id

  lifecycle {
    create_before_destroy = true
  }
}
