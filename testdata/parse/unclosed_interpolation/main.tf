locals {
  a = "${var.x"
}
