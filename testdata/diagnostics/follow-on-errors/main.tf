resource "null_resourc" "bad" {
  triggers = {
    a = var.undeclared
  }
  bogus = 1
}

data "null_resource" "wrong_mode" {
  inputs = {
    a = var.undeclared
  }
}

resource "null_resource" "f" {
  count = 2
  bogus = 1
}

resource "null_resource" "g" {
  triggers = {
    id    = null_resource.f.id
    index = count.index
  }
}

locals {
  f_id = null_resource.f.id
}

output "o" {
  value = local.f_id
}

resource "null_resource" "independent" {
  triggers = {
    i = count.index
  }
}
