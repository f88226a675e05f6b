resource "terraform_data" "ok" {
  connection {
    host = "10.0.0.1"
    user = "admin"
  }

  provisioner "file" {
    source      = "conf/"
    destination = "/etc/app"
  }

  provisioner "remote-exec" {
    inline = ["systemctl restart app"]

    connection {
      port = 2222
    }
  }
}

resource "terraform_data" "typos" {
  connection {
    host   = self.output
    colour = "red"
  }

  provisioner "remote-exec" {
    inline = ["true"]
    cmd    = "true"
  }

  provisioner "remote-exec" {
    inline = ["not checked: the first provisioner had errors"]
    script = "x.sh"
  }
}

resource "terraform_data" "both" {
  provisioner "remote-exec" {
    inline  = ["true"]
    scripts = ["a.sh"]
  }
}

resource "terraform_data" "copy" {
  provisioner "file" {
    source      = "a"
    content     = "b"
    destination = "/tmp/c"
  }
}

resource "terraform_data" "nowhere" {
  provisioner "file" {
    content = "b"
  }
}

resource "terraform_data" "hostless" {
  provisioner "local-exec" {
    command = "true"

    connection {
      user    = "admin"
      port    = "ssh"
      timeout = "1m"
    }
  }
}
