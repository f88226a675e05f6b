terraform {
  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "2.0.2"
    }
  }
}

module "vm" {
  source    = "./modules/vm"
  cpus      = "two"
  undeclared = 1
}

output "id" {
  value = module.vm.missing_output
}

output "name" {
  value = module.vm.name
}
