resource "null_${x}" "a" {}
