a=coalesce(lookup( 2.5E-2, true || 	 ""   )...)
ami20 =2.5E-2
my-dashed =	<<EOF
EOF
