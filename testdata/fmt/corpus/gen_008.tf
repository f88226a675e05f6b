


x1 = module.1.my-dashed
count=! ( "#no")
#
depends_on =module[*].a
for_each =  merge( )


