output "dir" {
  value = "./m"
}
