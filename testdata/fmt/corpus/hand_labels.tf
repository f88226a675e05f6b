resource aws_instance web {}
resource "a" b {
}
module /* a */ m /* b */ {
}
x "a\"q" "\u00e9" "" {}
y /* keep */ {}
z "a" /* after */ {}
