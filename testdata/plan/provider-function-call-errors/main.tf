terraform {
  required_providers {
    ferrotest = {
      source = "terraform.io/builtin/ferrotest"
    }
  }
}

# The provider reports these errors when it is called: validate cannot see them.
output "not_positive" {
  value = provider::ferrotest::positive(-1)
}

output "failed" {
  value = provider::ferrotest::fail("the provider says no")
}
