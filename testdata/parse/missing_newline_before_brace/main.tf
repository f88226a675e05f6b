locals {
  a = 1 }
