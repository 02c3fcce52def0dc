package templates

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"regexp"
)

// unpackJS is the one script a packed page runs as it stands: it
// inflates the rest.
//
//go:embed page/unpack.js
var unpackJS string

var packedTemplate = template.Must(template.New("packed").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.Policy}}">
<title>{{.Title}}</title>
</head>
<body>
<noscript><p>This page draws itself with its script: open it in a browser with scripts on.</p></noscript>
<script type="application/octet-stream" id="packed">{{.Packed}}</script>
<script>{{.JS}}</script>
</body>
</html>
`))

// PackedPage is a self-contained HTML page (an order sheet, a replay)
// mailed in about a third of its size: its style sheet css, its body's
// markup and its script js are DEFLATE-compressed (RFC 1951) into one
// base64 block, which a short script of the page inflates in the browser
// and puts in place. The page's Content-Security-Policy allows that
// script, css and js by their SHA-256 (CSP 3 hash sources) and nothing
// else: no other script runs and nothing is loaded from anywhere but
// data: pictures. markup is trusted HTML, the output of an html/template.
func PackedPage(title, css string, markup []byte, js string) []byte {
	doc, err := json.Marshal([]string{css, string(markup), js})
	if err != nil {
		panic(fmt.Sprintf("templates: packed page: %v", err)) // strings always marshal
	}
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.DefaultCompression)
	w.Write(doc)
	w.Close()
	enc := base64.StdEncoding.EncodeToString(z.Bytes())
	// Lines of 76, as in a mail: atob skips the line breaks.
	var packed bytes.Buffer
	for len(enc) > 76 {
		packed.WriteString(enc[:76])
		packed.WriteByte('\n')
		enc = enc[76:]
	}
	packed.WriteString(enc)
	var b bytes.Buffer
	err = packedTemplate.Execute(&b, struct {
		Title, Policy string
		Packed        template.HTML // base64 only, in an element whose text is not parsed
		JS            template.JS
	}{title, pagePolicy(css, unpackJS, js), template.HTML(packed.String()), template.JS(unpackJS)})
	if err != nil {
		panic(fmt.Sprintf("templates: packed page: %v", err)) // the frame is the program's own
	}
	return b.Bytes()
}

// pagePolicy is a packed page's Content-Security-Policy: its scripts
// and its style sheet allowed by their SHA-256, so that no other script
// runs, not even one an attacker's text got into the page; nothing loaded
// from anywhere but data: pictures; and no base URL nor form target.
func pagePolicy(css string, scripts ...string) string {
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	p := "default-src 'none'; script-src"
	for _, s := range scripts {
		p += " " + hash(s)
	}
	return p + "; style-src " + hash(css) + "; img-src data:; base-uri 'none'; form-action 'none'"
}

var packedBlock = regexp.MustCompile(`(?s)<script type="application/octet-stream" id="packed">(.*?)</script>`)

// Unpack returns what PackedPage packed into page: its style sheet, its
// markup and its script, for programs and tests that read a page's data.
//
// It returns ErrNotPacked when page holds no packed block.
func Unpack(page []byte) (css string, markup []byte, js string, err error) {
	m := packedBlock.FindSubmatch(page)
	if m == nil {
		return "", nil, "", ErrNotPacked
	}
	z, err := base64.StdEncoding.DecodeString(string(bytes.ReplaceAll(m[1], []byte("\n"), nil)))
	if err != nil {
		return "", nil, "", fmt.Errorf("templates: packed block: %w", err)
	}
	doc, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		return "", nil, "", fmt.Errorf("templates: packed block: %w", err)
	}
	var parts []string
	if err := json.Unmarshal(doc, &parts); err != nil || len(parts) != 3 {
		return "", nil, "", fmt.Errorf("templates: packed block is not style, markup and script: %v", err)
	}
	return parts[0], []byte(parts[1]), parts[2], nil
}

// ErrNotPacked is Unpack's error for a page without a packed block.
var ErrNotPacked = errors.New("templates: the page holds no packed block")
