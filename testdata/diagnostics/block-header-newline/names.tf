locals
{
  a = 1
}
