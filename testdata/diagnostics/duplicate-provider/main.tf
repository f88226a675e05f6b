provider "null" {}
provider "null" {}
