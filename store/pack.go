package store

import (
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
