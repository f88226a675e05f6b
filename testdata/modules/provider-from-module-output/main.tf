terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  alias = "plain"
}

# The default configuration refers to a module's output; module.app's resource inherits it.
provider "ferrotest" {
  prefix = "${module.base.computed}/"
}

module "base" {
  source = "./base"
  providers = {
    ferrotest = ferrotest.plain
  }
}

module "app" {
  source = "./app"
}

output "app" {
  value = module.app.computed
}
