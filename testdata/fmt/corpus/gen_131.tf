terraform x-y  "e\u00e9"{ 
   name= data
  x1  =	- ({for v in path :	""=>   "$x"	})
  /* block */
}

