# head
// head2
/* head3 */
/*
 multi
 line
*/
block "a" { # after brace
  # inside
  x = 1 # end
  y = [ # open
    1, # item
    /* inline */ 2,
    3 // slash
  ] # close
  /* before */ z = 3
} # after block
# tail