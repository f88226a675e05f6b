resource "terraform_data" "a" {
  triggers_replace = "one"

  lifecycle {
    create_before_destroy = true
  }
}
