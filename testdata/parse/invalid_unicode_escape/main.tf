locals {
  a = "\u12"
}
