data "null_data_source" "a" {}
data "null_data_source" "a" {}
