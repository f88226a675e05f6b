terraform {
  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "2.0.2"
    }
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
  }
}

provider "vsphere" {
  user     = "admin"
  server   = "vc.example.test"
  password = 12
}

provider "vsphere" {
  alias          = "second"
  vsphere_server = "vc2.example.test"
}

provider "lxd" {
  generate_client_certificates = "yes"
  lxd_remote {
    name    = "local"
    scheme  = "unix"
    default = true
  }
  lxd_remote {
    address = "10.0.0.1"
  }
}

data "vsphere_datacenter" "dc" {
  provider = vsphere.second
  name     = "dc1"
}

data "vsphere_datacenter" "other" {
  provider = vsphere.third
}
