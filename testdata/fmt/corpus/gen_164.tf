in_x="#no${~"${~ "tab\there50% " ~}${(null	)~}"  }%{  for v in ({
  "quoted"   = null
  tags=	007, # c
}  ) ~}${v}%{  endfor  ~}"? 	 count["for_each"][*].for_each.ami : false
/* multi
   line */
/* multi
   line */
for_each=	path.0
for_each21   =	"" #
