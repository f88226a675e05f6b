variable "v" {
  default = "1"
}

variable "n" {
  type    = list(string)
  default = ["a", "b"]
}

resource "terraform_data" "src" {
  input = var.v
}

resource "terraform_data" "whole" {
  lifecycle {
    replace_triggered_by = [terraform_data.src]
  }
}

resource "terraform_data" "attr" {
  lifecycle {
    replace_triggered_by = [terraform_data.src.input]
  }
}

resource "terraform_data" "n" {
  count = 2
  input = var.n[count.index]
}

resource "terraform_data" "per_instance" {
  count = 2

  lifecycle {
    replace_triggered_by = [terraform_data.n[count.index]]
  }
}
