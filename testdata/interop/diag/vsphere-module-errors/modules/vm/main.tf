terraform {
  required_providers {
    vsphere = {
      source = "hashicorp/vsphere"
    }
  }
}

variable "cpus" {
  type = number
}

variable "name" {
  type = string
}

data "vsphere_datacenter" "dc" {
  name = "dc1"
}

resource "vsphere_virtual_machine" "vm" {
  name             = var.name
  resource_pool_id = data.vsphere_datacenter.dc.id
  num_cpus         = var.cpus
  memory           = "lots"

  network_interface {
  }

  disk {
    label = "disk0"
    size  = 20
  }
}

output "name" {
  value = vsphere_virtual_machine.vm.name
}
