locals {
  a = try(
    upper([]),
    { x = 1 }.y,
    [
      1,
    ][5],
    "é${[
    ]}",
  )
}

output "a" {
  value = local.a
}
