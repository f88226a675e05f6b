mock_resource "cloud_server" {
  defaults = {
    address = "192.168.0.9"
  }
}
