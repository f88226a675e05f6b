variable "v" {
  default = "overridden"
}

variable "nope" {
  default = 1
}

locals {
  l       = "overridden"
  missing = 1
}

output "nope" {
  value = 1
}

resource "null_resource" "nope" {}

data "null_data_source" "nope" {}

module "nope" {}

provider "null" {
  alias = "nope"
}
