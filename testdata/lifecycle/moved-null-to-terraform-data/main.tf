resource "null_resource" "x" {
  triggers = {
    a = "1"
  }
}

resource "random_id" "r" {
  byte_length = 2
}
