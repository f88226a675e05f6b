locals {
  x = nosuchfunction(1)
}
