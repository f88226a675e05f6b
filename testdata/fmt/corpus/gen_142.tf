tags= []
lifecycle  "ünï"	"a-b"{ }

