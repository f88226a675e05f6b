locals {
  a = "café"
}
