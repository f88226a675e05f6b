locals {
  a == 1
}
