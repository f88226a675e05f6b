mock_provider "cloud" {
  source          = "./mocks"
  override_during = plan
}

run "defaults_at_plan" {
  command = plan

  assert {
    condition     = cloud_server.web[0].address == "192.168.0.9"
    error_message = "The shared mock file's defaults apply during plan."
  }
}
