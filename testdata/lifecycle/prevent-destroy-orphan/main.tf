resource "terraform_data" "a" {
  input = "x"

  lifecycle {
    prevent_destroy = true
  }
}
