locals {
  a = )
}
