terraform {
  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "2.0.2"
    }
  }
}

resource "vsphere_virtual_machin" "vm" {
  name             = "vm1"
  resource_pool_id = var.undeclared
  bogus            = 1

  disk {
    nope = 2
  }
}

resource "vsphere_folder" "f" {
  count = 2
  path  = "f${count.index}"
  type  = "vm"
  bogus = 1
}

resource "vsphere_folder" "g" {
  path = vsphere_folder.f.path
  type = "vm"
  tags = [count.index]
}

output "folder" {
  value = vsphere_folder.f.id
}

resource "vsphere_folder" "independent" {
  path = "i"
  type = "vm"
  tags = [count.index]
}
