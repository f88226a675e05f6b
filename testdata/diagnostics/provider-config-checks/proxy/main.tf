provider "null" {}

resource "null_resource" "p" {}
