 variable	"x" {
  type= string
}


 ami=- path [ 1] /* trailing */