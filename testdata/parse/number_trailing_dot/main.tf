locals {
  a = 1.
}
