locals {
  a = "%{ else }"
  b = "${}"
  c = "%{ for x in [] }${x}"
}
