provider "null" {
  version = "~> 2.1"
}
