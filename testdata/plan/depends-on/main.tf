resource "terraform_data" "first" {
  input = "one"
}

resource "terraform_data" "second" {
  input      = "two"
  depends_on = [terraform_data.first]
}
