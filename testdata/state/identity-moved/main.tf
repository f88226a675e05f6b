resource "ferrotest_named" "a" {
  name = "alpha"
  zone = "eu"
}

resource "ferrotest_thing" "t" {
  value = "tau"
}
