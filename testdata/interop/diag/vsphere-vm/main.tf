terraform {
  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "2.0.2"
    }
  }
}

provider "vsphere" {
  user                 = var.user
  password             = var.password
  vsphere_server       = "vcenter.example.test"
  allow_unverified_ssl = true
}

variable "user" {
  type = string
}

variable "password" {
  type      = string
  sensitive = true
}

variable "vms" {
  type = map(object({
    cpus   = number
    memory = number
    disks  = list(number)
  }))
  default = {
    web = { cpus = 2, memory = 2048, disks = [20, 40] }
  }
}

data "vsphere_datacenter" "dc" {
  name = "dc1"
}

data "vsphere_datastore" "ds" {
  name          = "datastore1"
  datacenter_id = data.vsphere_datacenter.dc.id
}

data "vsphere_compute_cluster" "cluster" {
  name          = "cluster1"
  datacenter_id = data.vsphere_datacenter.dc.id
}

data "vsphere_network" "net" {
  name          = "VM Network"
  datacenter_id = data.vsphere_datacenter.dc.id
}

data "vsphere_virtual_machine" "template" {
  name          = "ubuntu-template"
  datacenter_id = data.vsphere_datacenter.dc.id
}

module "folder" {
  source        = "./modules/folder"
  datacenter_id = data.vsphere_datacenter.dc.id
  path          = "servers"
}

resource "vsphere_virtual_machine" "vm" {
  for_each         = var.vms
  name             = each.key
  folder           = module.folder.path
  resource_pool_id = data.vsphere_compute_cluster.cluster.resource_pool_id
  datastore_id     = data.vsphere_datastore.ds.id
  num_cpus         = each.value.cpus
  memory           = each.value.memory
  guest_id         = data.vsphere_virtual_machine.template.guest_id

  network_interface {
    network_id   = data.vsphere_network.net.id
    adapter_type = data.vsphere_virtual_machine.template.network_interface_types[0]
  }

  dynamic "disk" {
    for_each = each.value.disks
    content {
      label       = "disk${disk.key}"
      size        = disk.value
      unit_number = disk.key
    }
  }

  clone {
    template_uuid = data.vsphere_virtual_machine.template.id
    customize {
      linux_options {
        host_name = each.key
        domain    = "example.test"
      }
      network_interface {}
    }
  }

  provisioner "local-exec" {
    command = "echo ${self.default_ip_address}"
  }

  provisioner "local-exec" {
    when       = destroy
    on_failure = continue
    command    = "echo ${self.name} ${each.key}"
  }
}

output "ips" {
  value = { for k, vm in vsphere_virtual_machine.vm : k => vm.default_ip_address }
}
