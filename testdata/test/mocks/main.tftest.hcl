mock_provider "cloud" {
  mock_resource "cloud_server" {
    defaults = {
      address = "10.0.0.1"
    }
  }

  mock_data "cloud_image" {
    defaults = {
      id = "img-123"
    }
  }
}

run "plan_counts" {
  command = plan

  assert {
    condition     = length(cloud_server.web) == 2
    error_message = "Two servers expected."
  }

  assert {
    condition     = data.cloud_image.base.id == "img-123"
    error_message = "The image comes from the mock's defaults."
  }
}

run "apply_values" {
  assert {
    condition     = output.address == "10.0.0.1"
    error_message = "The address comes from the mock's defaults."
  }

  assert {
    condition     = length(cloud_server.web[1].id) == 8
    error_message = "Generated ids are 8 characters."
  }

  assert {
    condition     = cloud_disk.data.server == cloud_server.web[0].id
    error_message = "The disk is on the first server."
  }
}

run "unknown_at_plan" {
  command = plan

  variables {
    size = 3
  }

  assert {
    condition     = cloud_server.web[2].address == "10.0.0.1"
    error_message = "Not known at plan."
  }
}
