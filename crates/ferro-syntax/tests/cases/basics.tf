# A comment
a = 1
b = "hello"
c = true
d = null
// another
e = 1.5e-3 /* inline */
resource "aws_instance" web {
  ami = "ami-123"
  tags = {
    Name = "x"
  }
  nested {}
  one "line" { x = 1 }
}
empty {
}
