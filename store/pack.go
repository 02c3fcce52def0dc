package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// packer compresses the bodies of mails once they have been sent. The
// bodies of a mail are stored as they came when it is queued (refBlob
// with later), because compressing them against their dictionaries is
// most of what storing a report costs, and the report would wait for it.
// Once the mail is out, PackSent compresses them away from any write
// transaction, on as many cores as there are, and stores each compressed
// form where that pays (packBlob) in one short transaction.
type packer struct {
	jobs []packJob
	seen map[string]bool
}

// packJob is one body to compress, against dict (whose hash is dictSum)
// when not nil. register, when not nil, is the dictionary key (dictKey)
// that had no dictionary yet: the body becomes its dictionary.
type packJob struct {
	key, body, dictSum, dict, register []byte
}

// sent adds the bodies of m, which has been sent, that are still stored
// as they came.
func (p *packer) sent(tx *bolt.Tx, m *Mail) {
	p.body(tx, m, m.TextSHA256, textDict)
	for _, a := range m.Attachments {
		if !a.Dropped && !compressed(a.Type) {
			p.body(tx, m, a.SHA256, dictName(a))
		}
	}
}

// body adds the body stored under sum, when it is stored as it came, with
// the dictionary dictFor would give it (without recording one: that is
// for the last transaction of PackSent).
func (p *packer) body(tx *bolt.Tx, m *Mail, sum, dictName string) {
	k, err := blobKey(sum)
	if err != nil || p.seen[sum] {
		return
	}
	v := tx.Bucket(bBlobs).Get(k)
	if len(v) < 2 || v[0] != snapRaw {
		return // compressed already, or nothing to compress
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.seen[sum] = true
	j := packJob{key: k, body: bytes.Clone(v[1:])}
	if dictName != "" {
		dk := dictKey(m, dictName)
		switch d := tx.Bucket(bBlobDicts).Get(dk); {
		case len(d) != sha256.Size:
			j.register = dk
		case !bytes.Equal(d, k):
			if b, err := readBody(tx, hex.EncodeToString(d)); err == nil {
				j.dictSum, j.dict = bytes.Clone(d), b
			}
		}
	}
	p.jobs = append(p.jobs, j)
}

// compress compresses every body, side by side.
func (p *packer) compress() [][]byte {
	out := make([][]byte, len(p.jobs))
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(p.jobs) {
				return
			}
			j := p.jobs[i]
			out[i] = packBlob(j.body, j.dictSum, j.dict)
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(p.jobs)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return out
}

// PackSent compresses the bodies of the mails ids, recorded as sent, that
// are still stored as they came (see packer). It reads in one transaction, compresses
// outside any, and stores the results in a third, where each is checked
// again: a body changed or gone meanwhile, or a dictionary recorded
// meanwhile by another, is left as it is. A body left uncompressed is
// still whole, so an error here loses nothing.
func (db *DB) PackSent(ids []uint64) error {
	var p packer
	err := db.bolt.View(func(tx *bolt.Tx) error {
		for _, id := range ids {
			m, err := getMail(tx, id, false)
			if err != nil {
				return err
			}
			if !m.Sent.IsZero() {
				p.sent(tx, &m)
			}
		}
		return nil
	})
	if err != nil || len(p.jobs) == 0 {
		return err
	}
	out := p.compress()
	return db.bolt.Update(func(tx *bolt.Tx) error {
		blobs, dicts := tx.Bucket(bBlobs), tx.Bucket(bBlobDicts)
		for i, j := range p.jobs {
			if v := blobs.Get(j.key); len(v) < 2 || v[0] != snapRaw {
				continue
			}
			if j.dictSum != nil && blobs.Get(j.dictSum) == nil {
				continue
			}
			if j.register != nil {
				if d := dicts.Get(j.register); d != nil && !bytes.Equal(d, j.key) {
					continue // another became the dictionary meanwhile
				}
				if err := dicts.Put(j.register, j.key); err != nil {
					return err
				}
			}
			if out[i][0] == snapRaw {
				continue // compressing did not pay
			}
			if err := blobs.Put(j.key, out[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// recentBodies keeps the last bodies stored in the blobs bucket, by hash,
// so that the sender reads the mails queued a moment ago (which is when
// it reads most of them) without decompressing their bodies again. A
// hash names its body wherever it is stored, so what is kept here can
// only ever be the right bytes, even for a transaction that was rolled
// back; a body is looked for here only when a mail in the file names it.
var recentBodies = bodyCache{max: 4 << 20}

// bodyCache holds bodies by hash, the oldest going first when they would
// take more than max bytes.
type bodyCache struct {
	mu    sync.Mutex
	max   int
	size  int
	m     map[[sha256.Size]byte][]byte
	order [][sha256.Size]byte
}

// put keeps a copy of body under sum.
func (c *bodyCache) put(sum [sha256.Size]byte, body []byte) {
	if len(body) > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[sum]; ok {
		return
	}
	if c.m == nil {
		c.m = map[[sha256.Size]byte][]byte{}
	}
	for len(c.order) > 0 && c.size+len(body) > c.max {
		c.size -= len(c.m[c.order[0]])
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[sum] = bytes.Clone(body)
	c.order = append(c.order, sum)
	c.size += len(body)
}

// get returns the body under sum, which the caller must not change.
func (c *bodyCache) get(sum []byte) ([]byte, bool) {
	if len(sum) != sha256.Size {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[[sha256.Size]byte(sum)]
	return b, ok
}
