terraform {
  required_providers {
    ferrotest = {
      source = "terraform.io/builtin/ferrotest"
    }
  }
}

variable "who" {
  type    = string
  default = "ferro"
}

variable "secret" {
  type      = string
  default   = "hidden"
  sensitive = true
}

resource "ferrotest_thing" "a" {
  value = provider::ferrotest::greet(var.who)
}

output "greeting" {
  value = provider::ferrotest::greet("world")
}

output "total" {
  value = provider::ferrotest::sum(1, 2, 3.5)
}

output "expanded" {
  value = provider::ferrotest::sum([4, 5]...)
}

output "converted" {
  value = provider::ferrotest::greet(42)
}

# An unknown argument: the function is not called, the result is unknown.
output "unknown" {
  value = provider::ferrotest::greet(ferrotest_thing.a.computed)
}

# A parameter that allows nulls and unknowns sees them.
output "describe_null" {
  value = provider::ferrotest::describe(null)
}

output "describe_unknown" {
  value = provider::ferrotest::describe(ferrotest_thing.a.computed)
}

output "sensitive" {
  value     = provider::ferrotest::greet(var.secret)
  sensitive = true
}

output "core" {
  value = core::upper("x")
}

output "core_try" {
  value = core::try(core::nosuch(1), "fallback")
}
