a = 1
thing "x" {}
