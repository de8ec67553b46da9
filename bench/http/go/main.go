// The Go server of the HTTP benchmark (see ../README.md): net/http and
// os/exec from the standard library, one child per request, its stdout
// piped to the response.
//
//	go build -o go-http-server . && ./go-http-server --port 8001 --workload cat --main-c ../main.c
//
// Flags fall back to the environment: PORT, WORKLOAD, MAIN_C.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
)

func env(name, dflt string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return dflt
}

func main() {
	here, _ := os.Getwd()
	port := flag.String("port", env("PORT", ""), "port on 127.0.0.1")
	workload := flag.String("workload", env("WORKLOAD", "echo"), "echo (`echo hi`) or cat (`cat MAIN_C`)")
	mainC := flag.String("main-c", env("MAIN_C", filepath.Join(here, "..", "main.c")), "the file of the cat workload")
	flag.Parse()
	if *port == "" {
		log.Fatal("--port (or PORT) is required")
	}
	var name string
	var args []string
	switch *workload {
	case "echo":
		name, args = "echo", []string{"hi"}
	case "cat":
		name, args = "cat", []string{*mainC}
	default:
		log.Fatalf("unknown workload %q (echo or cat)", *workload)
	}

	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		cmd := exec.Command(name, args...)
		stdout, err := cmd.StdoutPipe()
		if err == nil {
			err = cmd.Start()
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_, copyErr := io.Copy(w, stdout)
		if err := cmd.Wait(); err != nil || copyErr != nil {
			log.Printf("%s: wait %v, copy %v", name, err, copyErr)
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:"+*port)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("go net/http listening on %s, workload %s: %s %v\n", ln.Addr(), *workload, name, args)
	log.Fatal(http.Serve(ln, nil))
}
