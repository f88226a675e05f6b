resource "null_resource" "x" {
  count = 2
}
resource "null_resource" "y" {
  depends_on = [null_resource.x[0]]
}
