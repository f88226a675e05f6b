resource "terraform_data" "a" {
  input = "a"

  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "b" {
  input = terraform_data.a.id
}
