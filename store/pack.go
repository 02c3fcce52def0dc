package store

import (
	"bytes"
	"crypto/sha256"
	"runtime"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// packer compresses the bodies a batch of mails brings to the blobs
// bucket side by side. Each is stored as it is when its mail is queued,
// so that everything the transaction reads meanwhile (a dictionary
// recorded by the mail before, say) is already there and readable; finish
// then compresses them all at once, on as many cores as there are, and
// replaces each by its compressed form where that pays (packBlob).
// Compressing is most of what queueing a report costs, and it needs
// nothing from the transaction but the bytes given to add.
type packer struct {
	jobs []packJob
}

// packJob is one body to compress, against dict when not nil.
type packJob struct {
	key, body, dictSum, dict []byte
}

func (p *packer) add(key, body, dictSum, dict []byte) {
	p.jobs = append(p.jobs, packJob{key, body, dictSum, dict})
}

// finish compresses the bodies and stores the results; the transaction
// is not touched until every one is done.
func (p *packer) finish(tx *bolt.Tx) error {
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
	for i, j := range p.jobs {
		if out[i][0] == snapRaw {
			continue // stored so already
		}
		if err := tx.Bucket(bBlobs).Put(j.key, out[i]); err != nil {
			return err
		}
	}
	p.jobs = nil
	return nil
}

// recentBodies keeps the last bodies stored in the blobs bucket, by hash,
// so that the sender reads the mails queued a moment ago (which is when
// it reads most of them) without decompressing their bodies again. A
// hash names its body wherever it is stored, so what is kept here can
// only ever be the right bytes, even for a transaction that was rolled
// back; a body is looked for here only when a mail in the file names it.
var recentBodies = bodyCache{max: 1 << 20}

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
