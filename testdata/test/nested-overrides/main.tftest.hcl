mock_provider "cloud" {}

override_data {
  target = module.child.data.cloud_image.base
  values = {
    id = "img-child"
  }
}

run "instance_and_child" {
  override_resource {
    target = terraform_data.many[1]
    values = {
      output = "overridden"
    }
  }

  override_resource {
    target = module.child.terraform_data.inner
    values = {
      output = "child-overridden"
    }
  }

  assert {
    condition     = output.many[0] == "item-0" && output.many[2] == "item-2"
    error_message = "Instances without an override keep their values: ${jsonencode(output.many)}."
  }

  assert {
    condition     = output.many[1] == "overridden"
    error_message = "The instance override did not apply: ${output.many[1]}."
  }

  assert {
    condition     = output.child_inner == "child-overridden"
    error_message = "The override inside the child module did not apply: ${output.child_inner}."
  }

  assert {
    condition     = output.child_image == "img-child"
    error_message = "The file's data override inside the child module did not apply."
  }
}

run "plan_time_instance_override" {
  command = plan

  override_resource {
    target          = terraform_data.many[2]
    override_during = plan
    values = {
      output = "at-plan"
    }
  }

  assert {
    condition     = output.many[2] == "at-plan"
    error_message = "The plan-time override of one instance did not apply: ${output.many[2]}."
  }

  assert {
    condition     = output.many[0] == "item-0"
    error_message = "Another instance was touched."
  }
}

run "wrong_expectation" {
  override_resource {
    target = module.child.terraform_data.inner
    values = {
      output = "other"
    }
  }

  assert {
    condition     = output.child_inner == "child-overridden"
    error_message = "The child's value is now ${output.child_inner}."
  }
}
