resource "ferrotest_named" "a" {
  name = "alpha"
  zone = "eu"
}
