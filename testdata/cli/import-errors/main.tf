resource "terraform_data" "a" {
  input = "x"
}

resource "local_file" "f" {
  filename = "f.txt"
  content  = "x"
}
