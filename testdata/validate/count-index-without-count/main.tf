resource "terraform_data" "a" {
  input = count.index
}
