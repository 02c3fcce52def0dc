package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	islandorders "github.com/attu-pbem/attu/orders/island"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/mail/loopback"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// readmeCommand is one attu command line of the README's shell blocks.
type readmeCommand struct {
	line string
	args []string
	// exit is the exit status the README promises in the line's comment
	// ("# exit 1: ..."); 0 when it promises none.
	exit int
}

var promisedExit = regexp.MustCompile(`^exit (\d)\b`)

// readmeCommands returns the attu command lines of the ```sh blocks of a
// README, continuation lines joined, comments cut off. "go run
// ./cmd/attu demo" is left out: TestDemo runs it.
func readmeCommands(t *testing.T, readme []byte) []readmeCommand {
	t.Helper()
	var cmds []readmeCommand
	inSh := false
	var pending string
	for _, line := range strings.Split(string(readme), "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = strings.TrimSpace(line) == "```sh"
			continue
		case !inSh:
			continue
		}
		if strings.HasSuffix(line, "\\") {
			pending += strings.TrimSuffix(line, "\\") + " "
			continue
		}
		line, pending = pending+line, ""
		words, comment, err := shellWords(line)
		if err != nil {
			t.Fatalf("README: %q: %v", line, err)
		}
		switch {
		case len(words) > 0 && words[0] == "attu":
			words = words[1:]
		case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/attu":
			words = words[3:]
			if len(words) > 0 && words[0] == "demo" {
				continue
			}
		default:
			continue
		}
		c := readmeCommand{line: strings.TrimSpace(line), args: words}
		if m := promisedExit.FindStringSubmatch(comment); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// shellWords splits a command line as a POSIX shell would for the simple
// lines a README holds: words, 'single' and "double" quotes, and a comment
// from a # that begins a word.
func shellWords(line string) (words []string, comment string, err error) {
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case c == '#' && !inWord:
			return words, strings.TrimSpace(line[i+1:]), nil
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, "", errors.New("unterminated quote")
			}
			w.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '|' || c == '>' || c == '<' || c == ';' || c == '&' || c == '$' || c == '`':
			return nil, "", fmt.Errorf("%q: keep the README's commands to plain words, which the test can run", c)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, "", nil
}

// Every attu command the README shows runs, in the README's order, in an
// empty directory, with the exit status it promises: attu serve against
// a loopback mail system for example.org, with the configuration of
// examples/attu-serve.yaml pointed at it, and every later command while
// the daemon runs. Files the README names (examples/...) are the
// repository's.
func TestReadmeCommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, readme)
	seen := map[string]bool{}
	for _, c := range cmds {
		seen[c.args[0]] = true
	}
	for _, name := range []string{"quickstart", "serve", "new", "status", "show", "umpire", "export", "audit", "check"} {
		if !seen[name] {
			t.Errorf("the README shows no attu %s command", name)
		}
	}

	sys, err := loopback.Start(&loopback.Options{Domain: "example.org"})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	for _, u := range []string{"attu", "alice", "bob", "carol", "dave"} {
		if _, err := sys.AddUser(u, u+"-pw"); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("ATTU_IMAP_PASSWORD", "attu-pw")
	t.Setenv("ATTU_SMTP_PASSWORD", "attu-pw")
	t.Setenv("ATTU_PASSWORD", "attu-pw") // attu quickstart's
	dir := t.TempDir()
	t.Chdir(dir)
	writeReadmeConfig(t, filepath.Join(root, "examples", "attu-serve.yaml"), sys)

	var served chan int
	stopServe := func() {
		if served == nil {
			return
		}
		// The daemon stops on SIGTERM like under systemd; its signal
		// handler is installed, so the test process lives on.
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case code := <-served:
			if code != 0 {
				t.Errorf("attu serve exited %d after SIGTERM", code)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("attu serve did not stop on SIGTERM")
		}
		served = nil
	}
	defer stopServe()
	for _, c := range cmds {
		args := append([]string(nil), c.args...)
		for i, a := range args {
			if !filepath.IsAbs(a) && strings.Contains(a, "/") {
				if _, err := os.Stat(filepath.Join(root, a)); err == nil {
					args[i] = filepath.Join(root, a)
				}
			}
		}
		if args[0] == "quickstart" {
			// The provider's servers are out of reach here: the file is
			// written beside, unchecked, and must read as attu serve's.
			qs := filepath.Join(t.TempDir(), "quickstart.yaml")
			code, out, errs := runAttu(append(args, "-o", qs, "-check=false")...)
			t.Logf("%s: exit %d", c.line, code)
			if _, _, _, _, err := loadServeConfig(readFile(t, qs)); code != 0 || err != nil {
				t.Errorf("README: %s\nexit %d, %v\n%s%s", c.line, code, err, out, errs)
			}
			continue
		}
		if args[0] == "serve" && !strings.Contains(c.line, "-check") {
			served = make(chan int, 1)
			var errs bytes.Buffer
			go func(ch chan int) { ch <- run(args, &bytes.Buffer{}, &errs) }(served)
			waitSocket(t, controlSocket("attu.db"), served, &errs)
			continue
		}
		code, out, errs := runAttu(args...)
		t.Logf("%s: exit %d", c.line, code)
		if code != c.exit {
			t.Errorf("README: %s\nexit %d, want %d\n%s%s", c.line, code, c.exit, out, errs)
		}
	}
	if served == nil {
		t.Fatal("the README never started attu serve")
	}
	// The daemon sent the welcome mails of the README's game.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := sys.WaitDeliveries(ctx, 3); err != nil {
		t.Errorf("the daemon sent %d mails: %v", len(sys.Deliveries()), err)
	}
	stopServe()
	if _, err := os.Lstat(controlSocket("attu.db")); err == nil {
		t.Error("attu serve left its socket behind")
	}
}

// writeReadmeConfig writes attu.yaml, the example configuration with its
// servers replaced by the loopback system's (plaintext on 127.0.0.1, the
// mail system taking mail without a login) and its database here.
func writeReadmeConfig(t *testing.T, example string, sys *loopback.System) {
	t.Helper()
	b, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	server := func(key, addr string) map[string]any {
		host, port, _ := net.SplitHostPort(addr)
		s := cfg[key].(map[string]any)
		s["host"], s["security"] = host, "plain"
		s["port"], _ = strconv.Atoi(port)
		return s
	}
	imap := server("imap", sys.IMAPAddr())
	imap["user"] = "attu"
	imap["poll_interval"] = "1s"
	smtp := server("smtp", sys.SMTPAddr())
	delete(smtp, "user")
	delete(smtp, "password_env")
	cfg["database"] = "attu.db"
	cfg["tick"] = "1s"
	cfg["log_level"] = "warn"
	out, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("attu.yaml", out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// waitSocket waits until the daemon answers on its socket.
func waitSocket(t *testing.T, sock string, served chan int, errs *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return
		}
		select {
		case code := <-served:
			t.Fatalf("attu serve exited %d: %s", code, errs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("attu serve made no socket %s", sock)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The order files the README shows are well formed, as attu check would
// say.
func TestReadmeOrders(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// Each section's files are read by the reader of its game: Island
	// War's sections are headed so, the others are War in the Wind's.
	block := regexp.MustCompile("(?s)```yaml\n(.*?)```")
	var wind, island int
	for _, sec := range strings.Split(string(readme), "\n## ") {
		heading, _, _ := strings.Cut(sec, "\n")
		for _, b := range block.FindAllStringSubmatch(sec, -1) {
			var err error
			if strings.HasPrefix(heading, "Island War by mail") {
				island++
				_, err = islandorders.ReadOrders([]byte(b[1]))
			} else {
				wind++
				_, err = windorders.Parse([]byte(b[1]), windorders.Options{})
			}
			if err != nil {
				t.Errorf("the README's order file (section %q):\n%s\n%v", heading, b[1], err)
			}
		}
	}
	if wind == 0 || island == 0 {
		t.Fatalf("the README shows %d War in the Wind and %d Island War order files", wind, island)
	}
}
