terraform {
  required_providers {
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
  }
}

provider "lxd" {
  generate_client_certificates = true
  accept_remote_certificate    = true

  lxd_remote {
    name    = "local"
    scheme  = "unix"
    default = true
  }
}

resource "lxd_storage_pool" "pool" {
  name   = "data"
  driver = "dir"
  config = {
    source = "/var/lib/lxd/storage-pools/data"
  }
}

resource "lxd_volume" "vol" {
  name = "vol1"
  pool = lxd_storage_pool.pool.name
}

resource "lxd_network" "net" {
  name = "lxdbr1"
  config = {
    "ipv4.address" = "10.150.19.1/24"
    "ipv4.nat"     = "true"
  }
}

resource "lxd_profile" "web" {
  name = "web"

  dynamic "device" {
    for_each = { eth0 = lxd_network.net.name }
    content {
      name = device.key
      type = "nic"
      properties = {
        nictype = "bridged"
        parent  = device.value
      }
    }
  }
}

resource "lxd_container" "web" {
  for_each = toset(["a", "b"])
  name     = "web-${each.key}"
  image    = "images:alpine/3.14"
  profiles = ["default", lxd_profile.web.name]

  device {
    name = "data"
    type = "disk"
    properties = {
      path   = "/data"
      source = lxd_volume.vol.name
      pool   = lxd_storage_pool.pool.name
    }
  }

  file {
    content            = "hello ${each.key}"
    target_file        = "/etc/motd"
    create_directories = true
  }

  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${self.name} ${each.key}"
  }
}

resource "lxd_snapshot" "snap" {
  for_each       = lxd_container.web
  name           = "snap-${each.key}"
  container_name = each.value.name
}

output "addresses" {
  value = { for k, c in lxd_container.web : k => c.ipv4_address }
}
