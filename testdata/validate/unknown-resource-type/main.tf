resource "terraform_thing" "a" {
}
