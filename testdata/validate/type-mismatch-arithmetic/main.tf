locals {
  total = 1 + "apples"
}
