locals {
  a = "tab\qhere"
}
