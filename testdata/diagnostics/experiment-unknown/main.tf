terraform {
  experiments = [no_such_thing, variable_validation]
}
