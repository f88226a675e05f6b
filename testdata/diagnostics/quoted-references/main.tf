resource "null_resource" "x" {}
resource "null_resource" "y" {
  depends_on = ["null_resource.x"]
  provider   = "null"
}
