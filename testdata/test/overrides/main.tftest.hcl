mock_provider "cloud" {}

override_data {
  target = data.cloud_image.base
  values = {
    id = "img-file"
  }
}

run "file_level" {
  assert {
    condition     = output.image == "img-file"
    error_message = "The file-level override did not apply."
  }

  assert {
    condition     = length(output.address) == 8
    error_message = "An address is generated."
  }
}

run "run_level" {
  override_resource {
    target = cloud_server.web
    values = {
      address = "10.1.1.1"
    }
  }

  assert {
    condition     = output.address == "10.1.1.1"
    error_message = "The run's override did not apply."
  }
}

run "built_in_overridden_at_plan" {
  command = plan

  override_resource {
    target          = terraform_data.real
    override_during = plan
    values = {
      output = "faked"
    }
  }

  assert {
    condition     = output.real == "faked"
    error_message = "The override of a built-in resource did not apply during plan."
  }
}
