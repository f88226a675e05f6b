b  = {}
// comment
