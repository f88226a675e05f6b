provider "null" {
  arbitrary = true
}
resource "null_resource" "x" {}
