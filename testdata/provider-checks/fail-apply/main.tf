terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

resource "ferrotest_thing" "a" {
  value      = "hello"
  fail_apply = "the remote API refused"
}

resource "ferrotest_thing" "after" {
  value = ferrotest_thing.a.computed
}
