provider "null" {}

resource "null_resource" "x" {
  provider = null.nope
}
