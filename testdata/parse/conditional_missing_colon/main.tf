locals {
  a = true ? 1
}
