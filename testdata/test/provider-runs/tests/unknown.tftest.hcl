provider "ferrotest" {
  alias  = "late"
  prefix = run.plan_only.computed
}

run "plan_only" {
  command = plan
}

run "needs_known" {
  providers = {
    ferrotest = ferrotest.late
  }
}
