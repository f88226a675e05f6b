run "module_override" {
  override_module {
    target = module.nothing
  }
}
