resource "terraform_data" "x" {
  input = "in module"

  lifecycle {
    prevent_destroy = true
  }
}
