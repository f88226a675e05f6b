resource "terraform_data" "kept" {
  input = "1"

  lifecycle {
    prevent_destroy = true
  }
}

resource "terraform_data" "free" {
  input = terraform_data.kept.output
}
