locals {
  no_convert = convert("x", number)
  missing    = convert(1)
  attribute  = convert({ a = 1 }, object({ a = string, b = string }))
}
