resource "null_resource" "x" {
  count = 1
}
resource "null_resource" "y" {
  depends_on = [null_resource.x[0].id]
}
