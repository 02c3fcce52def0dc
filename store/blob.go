package store

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// The outbox keeps each mail's own fields as compressed JSON and the
// bodies of its attachments once each, by content (see the package
// documentation, "Outbox and attachments").
var (
	bBlobs         = []byte("blobs")          // SHA-256 → 'j' body or 'z' DEFLATE(body)
	bBlobRefs      = []byte("blob-refs")      // SHA-256 → u64 attachments that hold the body
	bOutboxPending = []byte("outbox-pending") // u64 id → empty: the mails not sent yet
	bOutboxLatest  = []byte("outbox-latest")  // schema 6 only: game NUL to NUL name → u64 id of the last picture kept
	bBlobDicts     = []byte("blob-dicts")     // game NUL to NUL name → SHA-256 of the dictionary (see dictFor)
)

// blobDict marks a body compressed with a preset dictionary: the format
// byte, then the SHA-256 of the body used as the dictionary, then the
// DEFLATE stream.
const blobDict = 'd'

// dictFor returns the dictionary for a body of the given name (or "text")
// sent to m's addresses in m's game: the first such body, stored plainly,
// or rather its last dictWindow bytes, all DEFLATE reads of it.
// The reports of one side differ from turn to turn in a few lines of the
// same maps and lists, so against the first one they compress several
// times better than alone. When there is none yet, it records the body
// under sum as the dictionary for the next ones and returns nil.
func dictFor(tx *bolt.Tx, m *Mail, name string, sum []byte) (dictSum, dict []byte) {
	k := dictKey(m, name)
	d := tx.Bucket(bBlobDicts)
	if v := d.Get(k); len(v) == sha256.Size {
		if w, ok := dictWindows.get(v); ok && tx.Bucket(bBlobs).Get(v) != nil {
			return bytes.Clone(v), w
		}
		if b, err := readBlob(tx, hex.EncodeToString(v)); err == nil {
			w := b[max(len(b)-dictWindow, 0):]
			dictWindows.put([sha256.Size]byte(v), w)
			return bytes.Clone(v), w
		}
	}
	d.Put(k, sum)
	return nil, nil
}

// dictWindow is as far back as DEFLATE reaches: of a dictionary, only its
// last dictWindow bytes count.
const dictWindow = 1 << 15

// dictWindows keeps the last window of the dictionaries used lately, by
// the hash of the whole dictionary: each report is compressed against
// its game's first report to the same reader, read back and decompressed
// otherwise for every new one. Like recentBodies, what a hash names can
// only be the right bytes.
var dictWindows = bodyCache{max: 512 << 10}

// blobWriters compress attachment bodies and mails alone, at the default
// level: most are the first report to a reader, which the later ones are
// compressed against (dictFor), and in a file of many games they are most
// of what it holds.
var blobWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.DefaultCompression) // the level is valid
	return zw
}}

// deltaWriters compress bodies against a dictionary, at the fastest
// level: that is every report after the first, on the way of every order,
// and against its dictionary a report is small at any level (about 4 KB
// of text and 4 KB of JSON at this one). The default level made them a
// quarter smaller for three times the work; the file of a 20-turn game
// holds 3.2 MB instead of 2.9.
var deltaWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid
	return zw
}}

// packBlob is b as stored: compressed (against dict, whose hash is
// dictSum, when given) when that saves at least an eighth.
//
// Against a dictionary, the compressor is given the dictionary's last
// window first and flushed: what it writes after the flush, its blocks
// starting on a byte, is the stream a reader primed with the dictionary
// (flate.NewReaderDict) decodes, exactly as if flate.NewWriterDict had
// written it. That spares a fresh compressor (a megabyte of tables) for
// every body, which a burst of them turned into a heap of garbage.
func packBlob(b, dictSum, dict []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(b)/3 + 64)
	pool := &blobWriters
	if dict != nil {
		pool = &deltaWriters
	}
	zw := pool.Get().(*flate.Writer)
	defer pool.Put(zw)
	if dict != nil {
		dict = dict[max(len(dict)-dictWindow, 0):]
		var primed bytes.Buffer
		primed.Grow(len(dict)/2 + len(b)/3 + 64)
		zw.Reset(&primed)
		zw.Write(dict)
		zw.Flush()
		skip := primed.Len()
		zw.Write(b)
		zw.Close()
		buf.WriteByte(blobDict)
		buf.Write(dictSum)
		buf.Write(primed.Bytes()[skip:])
	} else {
		buf.WriteByte(snapFlate)
		zw.Reset(&buf)
		zw.Write(b)
		zw.Close()
	}
	if buf.Len() < len(b)-len(b)/8 {
		return buf.Bytes()
	}
	return append([]byte{snapRaw}, b...)
}

// unpackBlob reads a stored body back (see packBlob).
func unpackBlob(tx *bolt.Tx, v []byte) ([]byte, error) {
	if len(v) == 0 || v[0] != blobDict {
		return unpackSnapshot(v)
	}
	if len(v) < 1+sha256.Size {
		return nil, errors.New("truncated")
	}
	dk := v[1 : 1+sha256.Size]
	dv := tx.Bucket(bBlobs).Get(dk)
	if dv == nil || dv[0] == blobDict {
		return nil, fmt.Errorf("dictionary %.12x missing", dk)
	}
	dict, err := unpackSnapshot(dv)
	if err != nil {
		return nil, fmt.Errorf("dictionary %.12x: %w", dk, err)
	}
	return io.ReadAll(flate.NewReaderDict(bytes.NewReader(v[1+sha256.Size:]), dict))
}

// blobKey is the key of a body: its SHA-256, 32 bytes.
func blobKey(sum string) ([]byte, error) {
	k, err := hex.DecodeString(sum)
	if err != nil || len(k) != sha256.Size {
		return nil, fmt.Errorf("store: attachment hash %q is not a SHA-256", sum)
	}
	return k, nil
}

// compressed says a MIME type's bodies are compressed already (a PNG is a
// zlib stream), so trying again would only cost time.
func compressed(mimeType string) bool {
	switch mimeType {
	case "image/png", "image/jpeg", "image/gif", "application/zip", "application/gzip":
		return true
	}
	return false
}

// refBlob counts one more attachment (or text) holding body, storing the
// body when it is the first: as it is when packed already, else
// compressed, against a dictionary (dictFor) when dictName is not empty.
// It returns the body's hash (hex).
//
// With a packer, the body is stored as it is for now and the packer
// compresses it later, beside the other bodies of the batch.
func refBlob(tx *bolt.Tx, p *packer, body []byte, packed bool, m *Mail, dictName string) string {
	sum := sha256.Sum256(body)
	k := sum[:]
	refs := tx.Bucket(bBlobRefs)
	n := uint64(0)
	if v := refs.Get(k); len(v) == 8 {
		n = binary.BigEndian.Uint64(v)
	}
	if n == 0 || tx.Bucket(bBlobs).Get(k) == nil {
		v := append([]byte{snapRaw}, body...)
		if !packed {
			var dictSum, dict []byte
			if dictName != "" {
				dictSum, dict = dictFor(tx, m, dictName, k)
			}
			if p != nil {
				p.add(k, body, dictSum, dict)
			} else {
				v = packBlob(body, dictSum, dict)
			}
		}
		tx.Bucket(bBlobs).Put(k, v)
		recentBodies.put(sum, body)
	}
	refs.Put(k, u64(n+1))
	return hex.EncodeToString(k)
}

// refExisting counts one more attachment holding the body already stored
// under sum; false when it is not stored.
func refExisting(tx *bolt.Tx, sum string) bool {
	k, err := blobKey(sum)
	if err != nil || tx.Bucket(bBlobs).Get(k) == nil {
		return false
	}
	n := uint64(0)
	if v := tx.Bucket(bBlobRefs).Get(k); len(v) == 8 {
		n = binary.BigEndian.Uint64(v)
	}
	return tx.Bucket(bBlobRefs).Put(k, u64(n+1)) == nil
}

// unrefBlob counts one attachment fewer holding the body under sum, and
// deletes the body when none is left.
func unrefBlob(tx *bolt.Tx, sum string) error {
	k, err := blobKey(sum)
	if err != nil {
		return err
	}
	refs := tx.Bucket(bBlobRefs)
	v := refs.Get(k)
	if len(v) != 8 || binary.BigEndian.Uint64(v) == 0 {
		return fmt.Errorf("store: attachment body %.12s is not counted", sum)
	}
	if n := binary.BigEndian.Uint64(v) - 1; n > 0 {
		return refs.Put(k, u64(n))
	}
	if err := refs.Delete(k); err != nil {
		return err
	}
	return tx.Bucket(bBlobs).Delete(k)
}

// readBody returns the body of a mail stored under sum: from
// recentBodies when it was stored lately, else readBlob. Check reads with
// readBlob alone, so that it looks at what the file holds.
func readBody(tx *bolt.Tx, sum string) ([]byte, error) {
	if k, err := blobKey(sum); err == nil {
		if b, ok := recentBodies.get(k); ok && tx.Bucket(bBlobs).Get(k) != nil {
			return b, nil
		}
	}
	return readBlob(tx, sum)
}

// readBlob returns the body stored under sum, checked against its hash.
func readBlob(tx *bolt.Tx, sum string) ([]byte, error) {
	k, err := blobKey(sum)
	if err != nil {
		return nil, err
	}
	v := tx.Bucket(bBlobs).Get(k)
	if v == nil {
		return nil, fmt.Errorf("store: attachment body %.12s missing", sum)
	}
	b, err := unpackBlob(tx, v)
	if err != nil {
		return nil, fmt.Errorf("store: attachment body %.12s: %w", sum, err)
	}
	if got := sha256.Sum256(b); !bytes.Equal(got[:], k) {
		return nil, fmt.Errorf("store: attachment body %.12s altered", sum)
	}
	return b, nil
}

// storeBodies moves m's text and the bodies of its attachments to the
// blobs bucket (see storeAttachments), compressed at once or by p.
func storeBodies(tx *bolt.Tx, p *packer, m *Mail) {
	m.TextSHA256 = refBlob(tx, p, []byte(m.Text), false, m, textDict)
	storeAttachments(tx, p, m)
}

// textDict names the dictionary of mails' texts (dictFor); that of an
// attachment is its name.
const textDict = "\x00text"

// dictName names the dictionary a's body is compressed against, empty
// for none. The order templates, named after their turn and wait, share
// one: each is much like the last.
func dictName(a Attachment) string {
	switch {
	case a.Redrawable:
		return "" // a dictionary must never be dropped
	case a.Type == "application/yaml":
		return yamlDict
	}
	return a.Name
}

// yamlDict names the dictionary of the order templates (dictName).
const yamlDict = "\x00yaml"

// storeAttachments replaces the bodies of m's attachments by references to
// the blobs bucket. An attachment without a body but with the hash of one
// the outbox still keeps (a report sent again) shares it; one to be drawn
// when sent (Attachment.ToDraw) stays as it is; one whose body is no
// longer kept is left out, so the mail goes without it rather than not at
// all.
func storeAttachments(tx *bolt.Tx, p *packer, m *Mail) {
	kept := m.Attachments[:0:0]
	for _, a := range m.Attachments {
		switch {
		case a.Data == nil && a.ToDraw():
			a.Size = 0
			kept = append(kept, a)
			continue
		case a.Data != nil:
			a.Size = len(a.Data)
			a.SHA256 = refBlob(tx, p, a.Data, compressed(a.Type), m, dictName(a))
		case a.SHA256 != "" && refExisting(tx, a.SHA256):
		case a.SHA256 == "" && a.Size == 0:
			a.SHA256 = refBlob(tx, p, nil, false, m, "")
		default:
			continue
		}
		a.Data, a.Dropped = nil, false
		kept = append(kept, a)
	}
	m.Attachments = kept
}

// putMail writes m under its id: its JSON, the text and the attachment
// bodies left out (they are in the blobs bucket), so that the rewrites of
// a mail's state (sent, retried) stay small.
func putMail(tx *bolt.Tx, m *Mail) error {
	c := *m
	c.Text = ""
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	ob := tx.Bucket(bOutbox)
	if err := ob.Put(u64(m.ID), append([]byte{snapRaw}, b...)); err != nil {
		return err
	}
	if m.Sent.IsZero() {
		return tx.Bucket(bOutboxPending).Put(u64(m.ID), nil)
	}
	return tx.Bucket(bOutboxPending).Delete(u64(m.ID))
}

// mailOf tells cheaply, without decoding it, whether the stored mail v may
// belong to game: false only when it certainly does not.
func mailOf(v []byte, game string) bool {
	g, _ := json.Marshal(game)
	return bytes.Contains(v, append([]byte(`"game":`), g...))
}

// getMail reads mail id; with bodies, the bodies of the attachments still
// kept are read too.
func getMail(tx *bolt.Tx, id uint64, bodies bool) (Mail, error) {
	v := tx.Bucket(bOutbox).Get(u64(id))
	if v == nil {
		return Mail{}, fmt.Errorf("%w: %d", ErrNoMail, id)
	}
	return decodeMail(tx, id, v, bodies)
}

func decodeMail(tx *bolt.Tx, id uint64, v []byte, bodies bool) (Mail, error) {
	var m Mail
	b, err := unpackSnapshot(v)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err == nil && m.ID != id {
		err = fmt.Errorf("stored as mail %d", m.ID)
	}
	if err == nil && bodies {
		var text []byte
		text, err = readBody(tx, m.TextSHA256)
		m.Text = string(text)
	}
	for i := range m.Attachments {
		a := &m.Attachments[i]
		if err != nil || !bodies {
			break
		}
		if a.Dropped {
			continue
		}
		a.Data, err = readBody(tx, a.SHA256)
		if err == nil && a.Data == nil {
			a.Data = []byte{}
		}
	}
	if err != nil {
		return Mail{}, fmt.Errorf("store: outbox mail %d: %w", id, err)
	}
	return m, nil
}

// dictKey names the bodies of one name (or the text) to one address list
// in one game, which share a dictionary (dictFor).
func dictKey(m *Mail, name string) []byte {
	to, _ := json.Marshal(m.To)
	return []byte(m.Game + "\x00" + string(to) + "\x00" + name)
}

// dropDrawn runs when m has been sent: the bodies of its redrawable
// attachments are dropped, their hashes and sizes kept. The game service
// draws such a body again from the log entry it records
// (Attachment.DrawnAt) when the mail is resent, so none is kept: a kept
// picture would be some 70 KB per address and game, read again by no one
// most of the time, and a file of many games would be mostly pictures.
// An attachment of a mail queued before schema 7 records no entry, and
// keeps its body.
func dropDrawn(tx *bolt.Tx, m *Mail) error {
	for i := range m.Attachments {
		a := &m.Attachments[i]
		if !a.dropOnceSent() || a.Dropped {
			continue
		}
		a.Dropped = true
		if err := unrefBlob(tx, a.SHA256); err != nil {
			return err
		}
	}
	return nil
}

// checkOutbox verifies the outbox against its indexes and the bodies
// (Check): every mail readable, every body it keeps present and matching
// its hash, the counts of the bodies right, no body nobody holds, the
// pending index exactly the unsent mails; an unsent mail keeps every
// body, a sent one none that can be drawn again.
func checkOutbox(tx *bolt.Tx, bad func(string, ...any)) map[uint64]Mail {
	mails := map[uint64]Mail{}
	refs := map[string]uint64{}
	tx.Bucket(bOutbox).ForEach(func(k, v []byte) error {
		id := binary.BigEndian.Uint64(k)
		m, err := decodeMail(tx, id, v, false)
		if err != nil {
			bad("%v", err)
			return nil
		}
		mails[id] = m
		refs[m.TextSHA256]++
		if _, err := readBlob(tx, m.TextSHA256); err != nil {
			bad("mail %d: text: %v", id, err)
		}
		pending := tx.Bucket(bOutboxPending).Get(k) != nil
		if pending != m.Sent.IsZero() {
			bad("mail %d: sent %v but pending %v in the index", id, !m.Sent.IsZero(), pending)
		}
		for _, a := range m.Attachments {
			switch {
			case a.Dropped && !a.Redrawable:
				bad("mail %d: attachment %s dropped though it cannot be drawn again", id, a.Name)
			case a.Dropped && m.Sent.IsZero() && !a.ToDraw():
				bad("mail %d: attachment %s dropped before the mail was sent", id, a.Name)
			case !a.Dropped && a.dropOnceSent() && !m.Sent.IsZero():
				bad("mail %d: attachment %s kept after the mail was sent, though it can be drawn again", id, a.Name)
			}
			if a.Dropped {
				continue
			}
			refs[a.SHA256]++
			if b, err := readBlob(tx, a.SHA256); err != nil {
				bad("mail %d: %s: %v", id, a.Name, err)
			} else if len(b) != a.Size {
				bad("mail %d: %s: %d bytes, recorded %d", id, a.Name, len(b), a.Size)
			}
		}
		return nil
	})
	tx.Bucket(bOutboxPending).ForEach(func(k, _ []byte) error {
		if _, ok := mails[binary.BigEndian.Uint64(k)]; !ok {
			bad("pending index names mail %x, not in the outbox", k)
		}
		return nil
	})
	tx.Bucket(bBlobRefs).ForEach(func(k, v []byte) error {
		sum := hex.EncodeToString(k)
		if len(v) != 8 || binary.BigEndian.Uint64(v) != refs[sum] {
			bad("attachment body %.12s counted %x, held by %d", sum, v, refs[sum])
		}
		delete(refs, sum)
		return nil
	})
	for sum := range refs {
		bad("attachment body %.12s held but not counted", sum)
	}
	tx.Bucket(bBlobs).ForEach(func(k, _ []byte) error {
		if tx.Bucket(bBlobRefs).Get(k) == nil {
			bad("attachment body %x held by no mail", k)
		}
		return nil
	})
	tx.Bucket(bBlobDicts).ForEach(func(k, v []byte) error {
		if tx.Bucket(bBlobRefs).Get(v) == nil {
			bad("dictionary %q: body %x held by no mail", k, v)
		}
		return nil
	})
	return mails
}

// migrateOutbox brings the outbox of a version 5 file to version 6: each
// mail's attachments, which version 5 kept inside its JSON (base64), go to
// the blobs bucket with its text, and the unsent mails are indexed. Nothing is dropped: a mail queued before version 6 never
// marks a picture as redrawable, so all its bodies are kept.
func migrateOutbox(tx *bolt.Tx) error {
	// outbox-latest is made for version 6, which named in it the last
	// picture kept for each address; migrateDrawn deletes it.
	for _, name := range [][]byte{bBlobs, bBlobRefs, bOutboxPending, bOutboxLatest, bBlobDicts} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	type v5Attachment struct {
		Name string `json:"name"`
		Type string `json:"type"`
		Data []byte `json:"data"`
	}
	ob := tx.Bucket(bOutbox)
	var ids []uint64
	ob.ForEach(func(k, _ []byte) error { ids = append(ids, binary.BigEndian.Uint64(k)); return nil })
	for _, id := range ids {
		v := ob.Get(u64(id))
		if len(v) > 0 && v[0] != '{' {
			continue // stored the version 6 way already (a format byte)
		}
		var m Mail
		var old struct {
			Attachments []v5Attachment `json:"attachments"`
		}
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("outbox mail %d: %w", id, err)
		}
		if err := json.Unmarshal(v, &old); err != nil {
			return fmt.Errorf("outbox mail %d: %w", id, err)
		}
		m.Attachments = nil
		for _, a := range old.Attachments {
			m.Attachments = append(m.Attachments, Attachment{Name: a.Name, Type: a.Type, Data: a.Data})
		}
		storeBodies(tx, nil, &m)
		if err := putMail(tx, &m); err != nil {
			return err
		}
	}
	return nil
}

// migrateDrawn brings a version 6 file to version 7, which keeps no
// picture once its mail is sent and records what each was drawn from
// (Attachment.DrawnAt). Version 6 kept, for each address of each game, the
// last picture sent, and named it in the outbox-latest bucket, which goes.
// Its mails record no entry to draw from, so the pictures they still keep
// stay (a resend shares them) and those they dropped stay dropped.
func migrateDrawn(tx *bolt.Tx) error {
	if tx.Bucket(bOutboxLatest) == nil {
		return nil
	}
	return tx.DeleteBucket(bOutboxLatest)
}
