depends_on= "a b"
/* multi
   line */
