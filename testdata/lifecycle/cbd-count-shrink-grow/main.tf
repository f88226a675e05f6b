variable "n" {
  default = 3
}

variable "gen" {
  default = 1
}

resource "terraform_data" "r" {
  count            = var.n
  input            = "r${count.index}"
  triggers_replace = var.gen

  lifecycle {
    create_before_destroy = true
  }
}
