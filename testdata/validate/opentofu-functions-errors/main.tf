locals {
  bad_escape = urldecode("100%")
  mixed      = cidrcontains("10.0.0.0/8", "fd00::1")
  not_gzip   = base64gunzip(base64encode("plain text, not gzip"))
}
