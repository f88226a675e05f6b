mock_provider "dns" {
  mock_resource "dns_record" {
    defaults = {
      fqdn = "web.example.com"
    }
  }
}

variables {
  service = "web"
}

run "plan_has_two_replicas" {
  command = plan

  assert {
    condition     = length(terraform_data.replica) == 2
    error_message = "Two replicas by default."
  }
}

run "apply_names_hosts" {
  assert {
    condition     = alltrue([for h in output.hosts : startswith(h, "web-")])
    error_message = "Every host is named after the service."
  }

  assert {
    condition     = output.fqdn == "web.example.com"
    error_message = "The record's name comes from the mock."
  }
}

run "scale_up" {
  variables {
    replicas = 3
  }

  assert {
    condition     = length(output.hosts) == 3
    error_message = "Three replicas after scaling up."
  }

  assert {
    condition     = output.hosts[0] == run.apply_names_hosts.hosts[0]
    error_message = "Scaling up keeps the existing hosts."
  }
}

run "rejects_bad_names" {
  command = plan

  variables {
    service = "Not Valid"
  }

  expect_failures = [
    var.service,
  ]
}
