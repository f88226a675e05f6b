locals {
  a = {
