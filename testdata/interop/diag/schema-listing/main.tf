terraform {
  required_providers {
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
    vsphere = {
      source  = "hashicorp/vsphere"
      version = "2.0.2"
    }
  }
}

provider "null" {}

resource "lxd_container" "c" {
  name  = "c"
  image = "ubuntu"
  bogus = 1
}

output "x" {
  value = var.nope
}
