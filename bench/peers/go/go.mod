module fastspawn/bench/peers/go

go 1.21
