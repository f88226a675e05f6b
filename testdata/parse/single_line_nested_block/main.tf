variable "a" { validation {} }
