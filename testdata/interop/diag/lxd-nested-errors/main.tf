terraform {
  required_providers {
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
  }
}

resource "lxd_container" "c" {
  name      = "c1"
  image     = "ubuntu"
  ephemeral = "maybe"
  limits = {
    cpu = 2
  }

  device {
    name = "eth0"
    properties = {
      nictype = "bridged"
    }
  }

  file {
    content     = "hello"
    target_file = "/tmp/hello"
    mode        = 644
    unknown     = true
  }

  nonsense {
  }
}

resource "lxd_network" "n" {
  name = "br0"
  config = {
    "ipv4.address" = "10.0.0.1/24"
  }
  type = ["bridge"]
}

resource "lxd_volume" "v" {
  name = "data"
  pool = lxd_network.n.name
}
