provider "null" {
  count      = 1
  for_each   = {}
  depends_on = []
  source     = "x"
  lifecycle {}
  locals {}
}
