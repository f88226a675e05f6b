a 1
locals {
  ok = 1
}
b = @
locals {
  c = "\z"
}
