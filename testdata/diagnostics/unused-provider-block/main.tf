provider "null" {
  nope = 1
}

provider "null" {
  alias = "unused"
  bogus = 1
}

resource "null_resource" "a" {}
