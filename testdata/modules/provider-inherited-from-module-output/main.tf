terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

provider "ferrotest" {
  alias = "plain"
}

# As a Kubernetes provider is configured from an EKS module's cluster endpoint while the same
# module manages Kubernetes objects with it: the configuration waits for the output it names,
# and the module's resource that inherits the configuration waits for the configuration.
provider "ferrotest" {
  prefix = "${module.cluster.endpoint}/"
}

module "cluster" {
  source = "./cluster"
  providers = {
    ferrotest.plain = ferrotest.plain
  }
}

output "auth" {
  value = module.cluster.auth
}
