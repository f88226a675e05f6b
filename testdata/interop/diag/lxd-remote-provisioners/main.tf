terraform {
  required_providers {
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
  }
}

# Valid: the usual shape, a resource-level connection to the new machine through `self`.
resource "lxd_container" "web" {
  name  = "web"
  image = "ubuntu:20.04"

  connection {
    type        = "ssh"
    host        = self.ip_address
    user        = "ubuntu"
    private_key = file("deploy-key.txt")
    timeout     = "2m"
  }

  provisioner "file" {
    source      = "conf/"
    destination = "/etc/app"
  }

  provisioner "remote-exec" {
    inline = ["sudo systemctl restart app"]
  }

  provisioner "remote-exec" {
    when       = destroy
    on_failure = continue
    script     = "drain.sh"

    connection {
      bastion_host = "bastion.example.com"
      bastion_port = 2222
    }
  }
}

# An unknown argument in the connection block and in the provisioner: both reported, and
# validation of the resource's provisioners stops there.
resource "lxd_container" "typos" {
  name  = "typos"
  image = "ubuntu:20.04"

  connection {
    host     = self.ip_address
    colour   = "red"
    password = "x"
  }

  provisioner "remote-exec" {
    inline  = ["true"]
    command = "nope"
  }

  provisioner "file" {
    content = "never checked"
  }
}

resource "lxd_container" "two_sources" {
  name  = "two-sources"
  image = "ubuntu:20.04"

  provisioner "remote-exec" {
    inline = ["true"]
    script = "both.sh"
  }
}

resource "lxd_container" "no_commands" {
  name  = "no-commands"
  image = "ubuntu:20.04"

  provisioner "remote-exec" {
  }
}

resource "lxd_container" "content_and_source" {
  name  = "content-and-source"
  image = "ubuntu:20.04"

  provisioner "file" {
    content     = "x"
    source      = "y"
    destination = "/tmp/z"
  }
}

resource "lxd_container" "nothing_to_copy" {
  name  = "nothing-to-copy"
  image = "ubuntu:20.04"

  provisioner "file" {
    destination = "/tmp/z"
  }
}

resource "lxd_container" "no_destination" {
  name  = "no-destination"
  image = "ubuntu:20.04"

  provisioner "file" {
    content = "no destination"
  }
}

# Connection settings without a host, and a port of the wrong type.
resource "lxd_container" "no_host" {
  name  = "no-host"
  image = "ubuntu:20.04"

  provisioner "remote-exec" {
    inline = ["true"]

    connection {
      user = "ubuntu"
      port = "twenty-two"
    }
  }
}
