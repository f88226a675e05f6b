resource "terraform_data" "a" {
  inptu = "typo"
}
