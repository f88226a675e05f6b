resource "terraform_data" "a" {
  input            = "v1"
  triggers_replace = "t1"
}
