terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

# The root resource takes one output of the module, and the module takes the root resource
# back through an input: no cycle, as each output waits only for what it refers to.
module "m" {
  source = "./m"
  input  = ferrotest_thing.root.computed
}

resource "ferrotest_thing" "root" {
  value = module.m.first
}

output "second" {
  value = module.m.second
}
