resource "null_resource" "x" {
  lifecycle {
    ignore_changes = ["*"]
  }
}
