variable "region" {
  default = "x"
}
variable "unused" {}
provider "null" {
}
provider "null" {
  alias = "alt"
}
resource "null_resource" "a" {
  provider = null.alt
  triggers = { r = var.region }
}
resource "null_resource" "b" {
  depends_on = [null_resource.a]
}
resource "null_resource" "c" {
  for_each = toset(["x", "y"])
  triggers = { k = each.key, p = path.module, w = terraform.workspace }
  provisioner "local-exec" {
    command = "echo ${self.id} ${null_resource.b.id}"
  }
}
output "p" {
  value     = null_resource.c
  sensitive = true
  depends_on = [null_resource.b]
}
