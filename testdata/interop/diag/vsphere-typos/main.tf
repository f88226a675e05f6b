terraform {
  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "2.0.2"
    }
  }
}

variable "vm_count" {
  type    = number
  default = 2
  validation {
    condition     = var.vm_count > 0
    error_message = "At least one VM is needed."
  }
}

locals {
  names = [for i in range(var.vm_count) : "vm-${i}"]
}

data "vsphere_datacenter" "dc" {
  name = "dc1"
}

data "vsphere_network" "net" {
  count         = 2
  name          = "net${count.index}"
  datacenter_id = data.vsphere_datacenter.dc.id
}

data "vsphere_virtual_machine" "template" {
  name          = "template"
  datacenter_id = data.vsphere_datacenter.dc.id
}

resource "vsphere_virtual_machine" "vm" {
  count            = var.vm_count
  name             = local.names[count.index]
  resource_pool_id = data.vsphere_datacenter.dc.id
  num_cpu          = 2

  network_interface {
    network_id = data.vsphere_network.net[count.index].id
  }

  disk {
    size = 20
  }

  clone {
    template_uuid = data.vsphere_virtual_machine.template.id
    customize {
      linux_options {
        hostname = local.names[count.index]
        domain   = "example.test"
      }
    }
  }
}

resource "vsphere_folder" "f" {
  path          = "x"
  type          = "vm"
  datacenter_id = data.vsphere_datacenter.dc.ids
  depends_on    = [vsphere_virtual_machine.vm]
}
