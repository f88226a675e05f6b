locals {
  a = [].*.b.*
}
