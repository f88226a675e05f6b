value =  [for k,v	in	{a = 1}: 	 ( "${ 	 count.é_accent }") ]

   my-dashed=	max("${~ "" 	 }"? concat("" 	 , "${  module[*].instance_type.1  }"    
  ) :coalesce(true, null,   {	for	k, v in  {a = 1}  : 	 true=>true if	1} ) , /* c2 */ true ...  )
