package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"testing"
	"time"
)

// TestServeMock serves the mock model API by hand, to drive an agent CLI
// interactively while working on its hook:
//
//	SHELLGUARD_E2E_SERVE_MOCK=scenario.json SHELLGUARD_E2E_MOCK_ADDR=127.0.0.1:8787 \
//	    go test ./e2e/agents -run TestServeMock -v -timeout 0
//
// scenario.json is {"Tag": "x", "Steps": [{"Command": "ls"}]}, read again
// before every request; each request and each tool result the client sends
// back is logged; with SHELLGUARD_E2E_MOCK_DUMP=DIR every request body is
// written to DIR. It stops on an interrupt. Without the variable it skips.
func TestServeMock(t *testing.T) {
	file := os.Getenv("SHELLGUARD_E2E_SERVE_MOCK")
	if file == "" {
		t.Skip("SHELLGUARD_E2E_SERVE_MOCK is not set")
	}
	addr := os.Getenv("SHELLGUARD_E2E_MOCK_ADDR")
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	m := &mockServer{t: t, out: map[string]*outcome{}, URL: "http://" + ln.Addr().String(), live: true}
	load := func() {
		b, err := os.ReadFile(file)
		if err != nil {
			return
		}
		var sc scenario
		if json.Unmarshal(b, &sc) == nil {
			m.mu.Lock()
			if sc.Tag != m.sc.Tag || len(sc.Steps) != len(m.sc.Steps) || len(sc.Steps) > 0 && sc.Steps[0].Command != m.sc.Steps[0].Command {
				m.sc = sc
				m.out[sc.Tag] = &outcome{}
			}
			m.mu.Unlock()
		}
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		load()
		if dump := os.Getenv("SHELLGUARD_E2E_MOCK_DUMP"); dump != "" && r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			os.WriteFile(filepath.Join(dump, fmt.Sprintf("%d.json", time.Now().UnixNano())), body, 0o644)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		fmt.Fprintf(os.Stderr, "%s %s %s\n", time.Now().Format("15:04:05.000"), r.Method, r.URL)
		m.serve(w, r)
	})}
	fmt.Fprintf(os.Stderr, "mock serving on %s\n", m.URL)
	go srv.Serve(ln)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	<-stop
	srv.Close()
}
