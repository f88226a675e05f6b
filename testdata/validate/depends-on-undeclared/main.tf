resource "terraform_data" "a" {
  depends_on = [terraform_data.ghost]
}
