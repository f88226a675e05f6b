resource "null_resource" "x" {
  triggers = {}
  lifecycle {
    ignore_changes = ["*", triggers]
  }
}
