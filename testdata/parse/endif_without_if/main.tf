locals {
  a = "%{ endif }"
}
