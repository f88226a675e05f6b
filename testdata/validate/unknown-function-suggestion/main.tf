locals {
  a = type(1)
  c = lenght("x")
}
