variable "x" {
  default = "1"
}

resource "terraform_data" "a" {
  triggers_replace = var.x
}

# b is replaced create-before-destroy, so a (which b depends on) is too.
resource "terraform_data" "b" {
  triggers_replace = terraform_data.a.id

  lifecycle {
    create_before_destroy = true
  }
}

# c only depends on a: it keeps the default order.
resource "terraform_data" "c" {
  triggers_replace = terraform_data.a.id
}
