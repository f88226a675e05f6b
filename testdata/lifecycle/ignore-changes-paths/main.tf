variable "a" {
  default = "1"
}

variable "b" {
  default = "2"
}

variable "t" {
  default = "t1"
}

variable "extra" {
  type    = map(string)
  default = {}
}

resource "terraform_data" "paths" {
  input            = tomap(merge({ a = var.a, b = var.b }, var.extra))
  triggers_replace = tomap({ t = var.t })

  lifecycle {
    ignore_changes = [input["a"], input["added"], triggers_replace["t"]]
  }
}

resource "terraform_data" "all" {
  input = var.b

  lifecycle {
    ignore_changes = all
  }
}
