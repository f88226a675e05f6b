locals {
  not_a_type = convert(1, strin)
  quoted     = convert(1, "string")
}
