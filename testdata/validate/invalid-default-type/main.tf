variable "count_of_things" {
  type    = number
  default = "many"
}
