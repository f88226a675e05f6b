# Native overrides of a resource declared in the JSON syntax.
resource "ferrotest_blocks" "json" {
  name = "json-renamed"
  rule {
    port = 443
  }
}
