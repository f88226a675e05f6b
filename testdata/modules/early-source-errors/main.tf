variable "dir" {
  type = string
}

resource "terraform_data" "d" {
  input = "./m"
}

module "from_resource" {
  source = terraform_data.d.output
}
