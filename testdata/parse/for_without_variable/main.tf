locals {
  a = [for]
}
