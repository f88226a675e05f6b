tags  =false	# trailing
long_attribute_name=( ("["	) ) - (local["a"].instance_type.ami )
/* multi
   line */
