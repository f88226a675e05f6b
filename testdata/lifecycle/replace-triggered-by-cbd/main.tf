variable "version_tag" {
  default = "v1"
}

resource "terraform_data" "release" {
  input = var.version_tag
}

resource "terraform_data" "server" {
  input = "server"

  lifecycle {
    create_before_destroy = true
    replace_triggered_by  = [terraform_data.release]
  }
}
