in_x=!path
   for_each59="${module [each.key][*] }"
