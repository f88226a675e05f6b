resource "terraform_data" "a" {
  settings {
    x = 1
  }
}
