locals { a = 1
}
