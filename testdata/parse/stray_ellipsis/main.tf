locals {
  a = [1...]
}
