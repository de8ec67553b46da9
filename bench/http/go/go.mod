module fastspawn/bench/http/go

go 1.21
