_under =  [ 1, ( "${  module}" )  - 42 ]
   for_each =coalesce( )
