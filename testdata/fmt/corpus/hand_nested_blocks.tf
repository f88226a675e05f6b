resource "a" "b" {
  lifecycle {
    ignore_changes = [tags]
    create_before_destroy = true
  }
  dynamic "ingress" {
    for_each = var.rules
    content {
      from_port = ingress.value.from
      to_port = ingress.value.to
    }
  }
}
