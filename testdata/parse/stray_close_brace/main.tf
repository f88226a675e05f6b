locals {
  a = 1
}
}
