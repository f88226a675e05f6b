resource "null_resource" "b"
{
  triggers = {
    x = "y"
  }
}
