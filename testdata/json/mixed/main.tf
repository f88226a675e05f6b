variable "greeting" {
  type    = string
  default = "hello"
}

resource "terraform_data" "native" {
  input = "${var.greeting} from HCL"
}
