provider "ferrotest" {
  alias  = "other"
  prefix = "from-alias-"
}

run "mapped_provider" {
  providers = {
    ferrotest = ferrotest.other
  }

  assert {
    condition     = startswith(output.computed, "from-alias-")
    error_message = "The mapped provider was not used: ${output.computed}"
  }
}
