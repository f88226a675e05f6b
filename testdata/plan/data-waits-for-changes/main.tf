variable "n" {
  default = 1
}

resource "null_resource" "a" {
  count = var.n
}

# Refers to a[0], known while planning: still read during apply when any instance of
# null_resource.a has a change planned.
data "null_data_source" "direct" {
  inputs = { x = null_resource.a[0].id }
}

# Through a local: not a reference to the resource, so read while planning.
locals {
  first = null_resource.a[0].id
}

data "null_data_source" "through_local" {
  inputs = { x = local.first }
}

# b depends on a (through a local), so what refers to b waits for a's changes too.
resource "null_resource" "b" {
  triggers = { x = local.first }
}

data "null_data_source" "through_b" {
  inputs = { x = null_resource.b.id }
}

# depends_on a module call: everything in it, and what its arguments refer to.
module "m" {
  source = "./m"
  v      = null_resource.a[0].id
}

data "null_data_source" "after_module" {
  inputs     = { x = "constant" }
  depends_on = [module.m]
}

# A data source inside a module whose call (two levels up) depends on a.
module "outer" {
  source     = "./outer"
  depends_on = [null_resource.a]
}

# Nothing it waits for changes: read while planning.
resource "null_resource" "steady" {}

data "null_data_source" "steady" {
  inputs = { x = null_resource.steady.id }
}
