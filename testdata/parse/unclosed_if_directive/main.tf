locals {
  a = "%{ if true }yes"
}
