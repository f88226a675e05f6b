a=1
   b    =    2
block    "x"    {
      c=[1 ,2 ,3]
  d = {   e = 1   }
    }
