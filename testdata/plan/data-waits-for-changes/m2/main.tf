data "null_data_source" "inner" {
  inputs = { x = "constant" }
}
