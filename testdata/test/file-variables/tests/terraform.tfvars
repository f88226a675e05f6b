from_file = "tests-dir"
input     = "tests-dir"
