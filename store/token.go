package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// RedactedToken stands for a side's token in a stored order file: the
// value orders.Redact writes, kept equal by a test.
const RedactedToken = "REDACTED"

// checkRedacted refuses an order file that could carry a token: one that
// does not read as YAML, or whose top-level token key (in any document)
// holds anything but RedactedToken. Tokens never leave the server, and
// stored files are exported.
func checkRedacted(raw []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w (it does not read as YAML: %v)", ErrToken, err)
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			if k.Value == "token" && (v.Kind != yaml.ScalarNode || v.Value != RedactedToken) {
				return fmt.Errorf("%w (line %d)", ErrToken, v.Line)
			}
		}
	}
}
