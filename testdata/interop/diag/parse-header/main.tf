terraform {
  required_providers {
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
  }
}

resource "lxd_container" "c"
{
  name  = "c1"
  image = "ubuntu"
}
