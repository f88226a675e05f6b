output	"my label" { 
 // comment
  name= <<END
END
}
lifecycle bare  x-y /* hdr */ {}
module	"a-b" {
}
