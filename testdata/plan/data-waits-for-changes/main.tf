variable "n" {
  default = 1
}

resource "terraform_data" "a" {
  count = var.n
}

# Refers to a[0], known while planning: still read during apply when any instance of
# terraform_data.a has a change planned.
data "terraform_remote_state" "direct" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  defaults = {
    ref = terraform_data.a[0].id
  }
}

# Through a local: not a reference to the resource, so read while planning.
locals {
  first = terraform_data.a[0].id
}

data "terraform_remote_state" "through_local" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  defaults = {
    ref = local.first
  }
}

# b depends on a (through a local), so what refers to b waits for a's changes too.
resource "terraform_data" "b" {
  input = local.first
}

data "terraform_remote_state" "through_b" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  defaults = {
    ref = terraform_data.b.id
  }
}

# depends_on a module call: everything in it, and what its arguments refer to.
module "m" {
  source = "./m"
  v      = terraform_data.a[0].id
}

data "terraform_remote_state" "after_module" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  depends_on = [module.m]
}

# A data source inside a module whose call (two levels up) depends on a.
module "outer" {
  source     = "./outer"
  depends_on = [terraform_data.a]
}

# Nothing it waits for changes: read while planning.
resource "terraform_data" "steady" {
  input = "s"
}

data "terraform_remote_state" "steady" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  defaults = {
    ref = terraform_data.steady.id
  }
}
