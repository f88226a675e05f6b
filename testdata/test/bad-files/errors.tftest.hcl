run "bad" {
  command = destroy
  retries = 3

  assert {
    error_message = "no condition"
  }

  expect_failures = [
    var.a + 1,
  ]
}

run "bad" {
}

resource "terraform_data" "b" {
}

override_resource {
  target = terraform_data.a
  values = { input = 1 }
}

run {
}

override_module {
  target = module.a[0]
}

override_data {
  target = terraform_data.a
}

test {
  parallel     = true
  skip_cleanup = true
}

test {
  parallel = false
}
