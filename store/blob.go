package store

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// The outbox's buckets beside bOutbox (see the package documentation,
// "Outbox and attachments").
var (
	bBlobs         = []byte("blobs")          // SHA-256 → 'j' body or 'z' DEFLATE(body)
	bBlobRefs      = []byte("blob-refs")      // SHA-256 → u64 attachments that hold the body
	bOutboxPending = []byte("outbox-pending") // u64 id → empty: the mails not sent yet
	bOutboxLatest  = []byte("outbox-latest")  // schema 6 only: game NUL to NUL name → u64 id of the last picture kept
	bBlobDicts     = []byte("blob-dicts")     // schemas 6 and 7 only: game NUL to NUL name → SHA-256 of a dictionary body
)

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
	return slices.Contains([]string{"image/png", "image/jpeg", "image/gif", "application/zip", "application/gzip"}, mimeType)
}

// refBlob counts one more holder of body, storing it when it is the
// first (as it is when packed already, else packValue), and returns its
// hash in hex.
func refBlob(tx *bolt.Tx, body []byte, packed bool) string {
	sum := sha256.Sum256(body)
	k := sum[:]
	if countRef(tx, k) == 1 || tx.Bucket(bBlobs).Get(k) == nil {
		v := append([]byte{snapRaw}, body...)
		if !packed {
			v = packValue(body)
		}
		tx.Bucket(bBlobs).Put(k, v)
	}
	return hex.EncodeToString(k)
}

// refExisting counts one more attachment holding the body already stored
// under sum; false when it is not stored.
func refExisting(tx *bolt.Tx, sum string) bool {
	k, err := blobKey(sum)
	if err != nil || tx.Bucket(bBlobs).Get(k) == nil {
		return false
	}
	return countRef(tx, k) > 0
}

// countRef counts one more holder of the body under k and returns the
// count, 0 when it cannot be written.
func countRef(tx *bolt.Tx, k []byte) uint64 {
	n := uint64(1)
	if v := tx.Bucket(bBlobRefs).Get(k); len(v) == 8 {
		n += binary.BigEndian.Uint64(v)
	}
	if tx.Bucket(bBlobRefs).Put(k, u64(n)) != nil {
		return 0
	}
	return n
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
	b, err := unpackValue(v)
	if err != nil {
		return nil, fmt.Errorf("store: attachment body %.12s: %w", sum, err)
	}
	if got := sha256.Sum256(b); !bytes.Equal(got[:], k) {
		return nil, fmt.Errorf("store: attachment body %.12s altered", sum)
	}
	return b, nil
}

// storeBodies moves m's text and the bodies of its attachments to the
// blobs bucket (see storeAttachments).
func storeBodies(tx *bolt.Tx, m *Mail) {
	m.TextSHA256 = refBlob(tx, []byte(m.Text), false)
	storeAttachments(tx, m)
}

// storeAttachments replaces the bodies of m's attachments by references to
// the blobs bucket. One without a body but with the hash of one still kept
// (a report sent again) shares it; one to be drawn (ToDraw) stays as it
// is; one whose body is gone is left out, so the mail goes without it.
func storeAttachments(tx *bolt.Tx, m *Mail) {
	kept := m.Attachments[:0:0]
	for _, a := range m.Attachments {
		switch {
		case a.Data == nil && a.ToDraw():
			a.Size = 0
			kept = append(kept, a)
			continue
		case a.Data != nil:
			a.Size = len(a.Data)
			a.SHA256 = refBlob(tx, a.Data, compressed(a.Type))
		case a.SHA256 != "" && refExisting(tx, a.SHA256):
		case a.SHA256 == "" && a.Size == 0:
			a.SHA256 = refBlob(tx, nil, false)
		default:
			continue
		}
		a.Data, a.Dropped = nil, false
		kept = append(kept, a)
	}
	m.Attachments = kept
}

// putMail writes m under its id without its bodies (in the blobs bucket),
// so that rewriting a mail's state stays cheap.
func putMail(tx *bolt.Tx, m *Mail) error {
	c := *m
	c.Text = ""
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bOutbox).Put(u64(m.ID), append([]byte{snapRaw}, b...)); err != nil {
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
	b, err := unpackValue(v)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err == nil && m.ID != id {
		err = fmt.Errorf("stored as mail %d", m.ID)
	}
	if err == nil && bodies {
		var text []byte
		text, err = readBlob(tx, m.TextSHA256)
		m.Text = string(text)
		for i := 0; err == nil && i < len(m.Attachments); i++ {
			if a := &m.Attachments[i]; !a.Dropped {
				a.Data, err = readBlob(tx, a.SHA256)
				if a.Data == nil {
					a.Data = []byte{} // an empty body is still a body
				}
			}
		}
	}
	if err != nil {
		return Mail{}, fmt.Errorf("store: outbox mail %d: %w", id, err)
	}
	return m, nil
}

// dropDrawn runs when m has been sent: the bodies of its redrawable
// attachments are dropped, their hashes and sizes kept (see the package
// documentation, "Outbox and attachments").
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
// (Check), and returns its mails.
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
	return mails
}

// migrateOutbox brings the outbox of a version 5 file to version 6: each
// mail's attachments, which version 5 kept inside its JSON (base64), go to
// the blobs bucket with its text, and the unsent mails are indexed.
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
		var old struct {
			Mail
			Attachments []v5Attachment `json:"attachments"` // in place of the Mail's
		}
		if err := json.Unmarshal(v, &old); err != nil {
			return fmt.Errorf("outbox mail %d: %w", id, err)
		}
		m := old.Mail
		for _, a := range old.Attachments {
			m.Attachments = append(m.Attachments, Attachment{Name: a.Name, Type: a.Type, Data: a.Data})
		}
		storeBodies(tx, &m)
		if err := putMail(tx, &m); err != nil {
			return err
		}
	}
	return nil
}

// migrateDrawn brings a version 6 file to version 7 by deleting the
// outbox-latest bucket; the pictures its mails keep stay.
func migrateDrawn(tx *bolt.Tx) error { return dropBucket(tx, bOutboxLatest) }

// dropBucket deletes the bucket name, if the file has it.
func dropBucket(tx *bolt.Tx, name []byte) error {
	if tx.Bucket(name) == nil {
		return nil
	}
	return tx.DeleteBucket(name)
}

// blobDict marked, in schemas 6 and 7, a body compressed against another
// as a preset dictionary: the format byte, the SHA-256 of the dictionary
// body (itself stored 'j' or 'z'), then the DEFLATE stream.
const blobDict = 'd'

// migrateBlobs brings a version 7 file to version 8: each body compressed
// against a dictionary is decompressed, checked against its hash and
// stored on its own, and the index of dictionaries goes.
func migrateBlobs(tx *bolt.Tx) error {
	blobs := tx.Bucket(bBlobs)
	var keys [][]byte
	blobs.ForEach(func(k, v []byte) error {
		if len(v) > 0 && v[0] == blobDict {
			keys = append(keys, bytes.Clone(k))
		}
		return nil
	})
	for _, k := range keys {
		v := blobs.Get(k)
		if len(v) < 1+sha256.Size {
			return fmt.Errorf("attachment body %.6x: truncated", k)
		}
		dk := v[1 : 1+sha256.Size]
		dict, err := unpackValue(blobs.Get(dk))
		if err != nil {
			return fmt.Errorf("attachment body %.6x: dictionary %.6x: %w", k, dk, err)
		}
		b, err := io.ReadAll(flate.NewReaderDict(bytes.NewReader(v[1+sha256.Size:]), dict))
		if sum := sha256.Sum256(b); err != nil || !bytes.Equal(sum[:], k) {
			return fmt.Errorf("attachment body %.6x does not read back (%v)", k, err)
		}
		if err := blobs.Put(k, packValue(b)); err != nil {
			return err
		}
	}
	return dropBucket(tx, bBlobDicts)
}
