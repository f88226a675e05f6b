locals {
  a = "abc
  b = 2
}
