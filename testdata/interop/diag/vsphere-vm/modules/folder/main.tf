terraform {
  required_providers {
    vsphere = {
      source = "hashicorp/vsphere"
    }
  }
}

variable "datacenter_id" {
  type = string
}

variable "path" {
  type = string
}

resource "vsphere_folder" "f" {
  path          = var.path
  type          = "vm"
  datacenter_id = var.datacenter_id
}

resource "vsphere_tag_category" "env" {
  name        = "environment"
  cardinality = "SINGLE"
  associable_types = [
    "VirtualMachine",
  ]
}

resource "vsphere_tag" "prod" {
  name        = "production"
  category_id = vsphere_tag_category.env.id
}

output "path" {
  value = vsphere_folder.f.path
}
