terraform {
  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "2.0.2"
    }
  }
}

data "vsphere_datacenter" "dc" {
  name = "dc1"
}
