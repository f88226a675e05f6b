for_each= <<-EOF
EOF



my-dashed = coalesce( ) >= 	 null
