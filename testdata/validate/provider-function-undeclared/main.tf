locals {
  undeclared = provider::other::thing(1)
  no_prefix  = ferrotest::greet("x")
  no_name    = provider::greet("x")
}

output "x" {
  value = [local.undeclared, local.no_prefix, local.no_name]
}
