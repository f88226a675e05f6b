resource "null_resource" "a" {
  depends_on = "x"
}
