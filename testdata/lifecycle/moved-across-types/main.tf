resource "ferrotest_rack" "a" {
  shelf {
    label = "top"
  }
  door {
    color = "red"
  }
}

resource "terraform_data" "t" {
  input = "kept"
}
