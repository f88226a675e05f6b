locals {
  a = 1
} extra
