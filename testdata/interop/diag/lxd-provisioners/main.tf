terraform {
  required_providers {
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
  }
}

variable "image" {
  default = "ubuntu:20.04"
}

resource "lxd_profile" "p" {
  name = "web"
  config = {
    "limits.cpu" = 2
  }

  device {
    name = "root"
    type = "disk"
    properties = {
      pool = "default"
      path = "/"
    }
  }
}

resource "lxd_container" "c" {
  count    = 2
  name     = "web-${count.index}"
  image    = var.image
  profiles = [lxd_profile.p.name]

  device {
    name = "data"
    type = "disk"
    properties = {
      source = "/srv/data"
      path   = "/data"
    }
  }

  provisioner "local-exec" {
    when       = "destroy"
    on_failure = "continue"
    command    = "echo removing ${self.name} ${count.index}"
  }

  provisioner "local-exec" {
    when    = destroy
    command = "echo ${lxd_profile.p.name} ${var.image}"
    environment = {
      PROFILE = lxd_profile.p.name
    }
  }

  provisioner "local-exec" {
    when    = "create"
    command = "echo ${self.ip_address}"
  }
}
