resource "null_resource" "x" {
  lifecycle {
    replace_triggered_by = [null_resource.y]
    precondition {
      condition     = true
      error_message = "x."
    }
  }
}
resource "null_resource" "y" {}
output "o" {
  value = 1
  precondition {
    condition     = true
    error_message = "x."
  }
}
