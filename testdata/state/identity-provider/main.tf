resource "ferrotest_named" "a" {
  name  = "alpha"
  value = "one"
}

resource "ferrotest_named" "b" {
  name = "beta"
  zone = "eu"
}
