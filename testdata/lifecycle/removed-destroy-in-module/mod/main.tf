resource "terraform_data" "keep" {
  input = "keep"
}

resource "terraform_data" "gone" {
  input = "gone"
}

resource "terraform_data" "forgotten" {
  input = "forgotten"
}
