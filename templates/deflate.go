package templates

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"math/bits"
	"slices"
)

// The pictures are mostly large fields of one colour cut by hex edges, so
// nearly every stretch of a row either repeats the row above it or runs
// in one colour. rowDeflate compresses such rows in a fraction of the time
// a general DEFLATE compressor takes, and about as small as its fastest
// level: it looks for only two matches at each place, the same bytes one
// row up and a run of the byte just before, then writes the whole picture
// as one block with Huffman codes made for it (RFC 1951, section 3.2.7).
// The output is an ordinary zlib stream (RFC 1950) any PNG reader decodes.

// Symbols of the literal/length alphabet and of the distance alphabet.
const (
	endOfBlock = 256
	numLitLen  = 286
	numDist    = 30
	maxCodeLen = 15 // the longest code of either alphabet
	maxCLCLen  = 7  // the longest code of the code-length alphabet
	// maxDistance is the furthest back a match may reach; rows longer
	// than that are compressed with runs alone.
	maxDistance = 1 << 15
)

// lengthSym is the symbol (257-285) of each match length 3 to 258, and
// lengthBase the first length of each symbol (RFC 1951, section 3.2.5).
var (
	lengthSym  [259]uint16
	lengthBase = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthBits = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	// clcOrder is the order in which the code lengths of the code-length
	// alphabet are sent.
	clcOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

func init() {
	for i := range lengthBase {
		last := 258 // symbol 285 has 258 alone, though 284 could reach it
		if i+1 < len(lengthBase) {
			last = int(lengthBase[i+1]) - 1
		}
		for l := int(lengthBase[i]); l <= last; l++ {
			lengthSym[l] = uint16(257 + i)
		}
	}
}

// distSym returns the symbol of distance d (1 to 32768), its extra bits
// and how many there are.
func distSym(d int) (sym int, extra uint32, n uint8) {
	if d <= 4 {
		return d - 1, 0, 0
	}
	// Symbols 4 and up come in pairs per power of two: 2k+2 and 2k+3
	// cover 2^(k+1)+1 to 2^(k+2), k extra bits each.
	k := bits.Len(uint(d-1)) - 2
	half := (d - 1) >> k & 1
	first := 1<<(k+1) + half<<k + 1
	return 2*k + 2 + half, uint32(d - first), uint8(k)
}

// A token is a literal byte (below 1<<31), or a match: 1<<31, the length
// shifted by 8, and which of the two distances in the low bit (0: one
// back, a run; 1: one row up).
type token uint32

const matchFlag = 1 << 31

// huffCode is a canonical Huffman code: the bits of each symbol, least
// significant first as DEFLATE packs them, and their number.
type huffCode struct {
	code []uint16
	len  []uint8
}

// newHuffCode builds a code of lengths at most maxBits for the
// frequencies freq. Symbols of frequency 0 get no code; when fewer than
// two symbols are used, unused ones are given codes so that the code is
// complete, as every decoder accepts.
func newHuffCode(freq []uint32, maxBits int) huffCode {
	n := len(freq)
	h := huffCode{code: make([]uint16, n), len: make([]uint8, n)}
	type node struct {
		freq        uint64
		left, right int // children in nodes, -1 for a leaf
		sym         int
		depth       int
	}
	var syms []int
	for s, f := range freq {
		if f > 0 {
			syms = append(syms, s)
		}
	}
	for s := 0; len(syms) < 2; s++ {
		if freq[s] == 0 && !slices.Contains(syms, s) {
			syms = append(syms, s)
		}
	}
	// Leaves sorted by frequency, then internal nodes made by the two
	// queue method: both queues stay sorted.
	slices.SortStableFunc(syms, func(a, b int) int {
		switch fa, fb := freq[a], freq[b]; {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	})
	nodes := make([]node, 0, 2*len(syms))
	for _, s := range syms {
		nodes = append(nodes, node{freq: uint64(freq[s]), left: -1, right: -1, sym: s})
	}
	leaves, inner := 0, len(syms)
	take := func() int {
		if leaves < len(syms) && (inner >= len(nodes) || nodes[leaves].freq <= nodes[inner].freq) {
			leaves++
			return leaves - 1
		}
		inner++
		return inner - 1
	}
	for range len(syms) - 1 {
		a, b := take(), take()
		nodes = append(nodes, node{freq: nodes[a].freq + nodes[b].freq, left: a, right: b})
	}
	// Depths from the root down; the root is the last node made.
	count := make([]int, max(len(syms), maxBits)+1)
	for i := len(nodes) - 1; i >= 0; i-- {
		nd := nodes[i]
		if nd.left < 0 {
			count[nd.depth]++
			continue
		}
		nodes[nd.left].depth = nd.depth + 1
		nodes[nd.right].depth = nd.depth + 1
	}
	// Codes longer than maxBits are folded back, keeping the code
	// complete (the method of ITU T.81, Annex K.3).
	for i := len(count) - 1; i > maxBits; i-- {
		for count[i] > 0 {
			j := i - 2
			for count[j] == 0 {
				j--
			}
			count[i] -= 2
			count[i-1]++
			count[j+1] += 2
			count[j]--
		}
	}
	// The most frequent symbols take the shortest codes.
	k := len(syms) - 1
	for l := 1; l <= maxBits; l++ {
		for range count[l] {
			h.len[syms[k]] = uint8(l)
			k--
		}
	}
	// Canonical codes (RFC 1951, section 3.2.2), reversed for packing.
	var blCount [maxCodeLen + 1]int
	for _, l := range h.len {
		blCount[l]++
	}
	blCount[0] = 0
	var next [maxCodeLen + 2]int
	code := 0
	for l := 1; l <= maxCodeLen; l++ {
		code = (code + blCount[l-1]) << 1
		next[l] = code
	}
	for s, l := range h.len {
		if l > 0 {
			h.code[s] = uint16(bits.Reverse16(uint16(next[l])) >> (16 - l))
			next[l]++
		}
	}
	return h
}

// bitWriter packs codes into bytes, least significant bit first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

// write adds the n low bits of b, n at most 32.
func (w *bitWriter) write(b uint32, n uint8) {
	w.acc |= uint64(b) << w.nacc
	w.nacc += uint(n)
	if w.nacc >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.nacc -= 32
	}
}

func (w *bitWriter) sym(h *huffCode, s int) { w.write(uint32(h.code[s]), h.len[s]) }

func (w *bitWriter) flush() {
	for ; w.nacc > 0; w.nacc -= min(w.nacc, 8) {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
	}
}

// matchLen is how many bytes from a[0] and b[0] agree, at most max; a may
// overlap b.
func matchLen(a, b []byte, max int) int {
	n := 0
	for n+8 <= max {
		x := binary.LittleEndian.Uint64(a[n:]) ^ binary.LittleEndian.Uint64(b[n:])
		if x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	for n < max && a[n] == b[n] {
		n++
	}
	return n
}

// deflateBuf holds what rowDeflate needs between calls.
type deflateBuf struct {
	tokens []token
}

// rowTokens appends the tokens of row r of raw, rows of stride bytes, to
// toks: at each place the longer of the two matches when it has three
// bytes at least, else the byte itself. A match ends with its row, so
// that a row's tokens depend on that row and the one above it alone.
func rowTokens(toks []token, raw []byte, stride, r int) []token {
	end := min((r+1)*stride, len(raw))
	for i := r * stride; i < end; {
		most := min(258, end-i)
		n, up := 0, uint32(1)
		if i >= stride && stride <= maxDistance {
			n = matchLen(raw[i-stride:], raw[i:], most)
		}
		if n < most && i >= 1 && raw[i-1] == raw[i] {
			if r := matchLen(raw[i-1:], raw[i:], most); r > n {
				n, up = r, 0
			}
		}
		if n < 3 {
			toks = append(toks, token(raw[i]))
			i++
			continue
		}
		toks = append(toks, token(matchFlag|uint32(n)<<8|up))
		i += n
	}
	return toks
}

// rowCache holds one image's rows compressed, so that another image of
// the same size takes those of the rows the two share: a report's picture
// is its map's with a few labels drawn on it. Such images are all written
// with one pair of codes, made for the base image with room for every
// symbol (fixedCodes), so that a shared row is written as the bits
// already made for it, not token by token.
type rowCache struct {
	raw    []byte
	stride int
	sums   []uint32 // the Adler-32 checksum of each row
	// lit and dist are the codes; head is the block's start written with
	// them (the last block, dynamic codes, the codes themselves).
	lit, dist huffCode
	head      bitString
	// bits holds each row's tokens written with the codes: row r's are
	// bits[start[r]:start[r+1]], nbits[r] of them.
	bits  []uint32
	start []int32
	nbits []int32
}

// bitString is a run of bits as bitWriter writes them: whole 32-bit words,
// least significant bit first, the last one holding the rest.
type bitString struct {
	words []uint32
	n     int
}

// bitsOf returns what w holds, w having started empty.
func bitsOf(w *bitWriter) bitString {
	b := bitString{n: len(w.out)*8 + int(w.nacc)}
	for i := 0; i+4 <= len(w.out); i += 4 {
		b.words = append(b.words, binary.LittleEndian.Uint32(w.out[i:]))
	}
	if w.nacc > 0 {
		b.words = append(b.words, uint32(w.acc))
	}
	return b
}

// bitsTo writes the n bits of words to w.
func bitsTo(w *bitWriter, words []uint32, n int) {
	for _, x := range words {
		k := min(n, 32)
		w.write(x, uint8(k))
		n -= k
	}
}

func newRowCache(raw []byte, stride int) *rowCache {
	c := &rowCache{raw: raw, stride: stride}
	rows := (len(raw) + stride - 1) / stride
	var toks []token
	var start []int
	for r := range rows {
		start = append(start, len(toks))
		toks = rowTokens(toks, raw, stride, r)
		c.sums = append(c.sums, adler32.Checksum(raw[r*stride:min((r+1)*stride, len(raw))]))
	}
	start = append(start, len(toks))
	c.lit, c.dist = fixedCodes(toks, stride)
	w := bitWriter{}
	w.write(0b101, 3) // the last block, dynamic codes
	writeCodes(&w, &c.lit, &c.dist)
	c.head = bitsOf(&w)
	for r := range rows {
		w := bitWriter{}
		writeTokens(&w, toks[start[r]:start[r+1]], &c.lit, &c.dist, stride)
		b := bitsOf(&w)
		c.start = append(c.start, int32(len(c.bits)))
		c.bits = append(c.bits, b.words...)
		c.nbits = append(c.nbits, int32(b.n))
	}
	c.start = append(c.start, int32(len(c.bits)))
	return c
}

// fixedCodes are the codes of images like the one whose tokens are toks:
// made for its counts, with every literal and length one more, so that
// any row of another image can be written with them too.
func fixedCodes(toks []token, stride int) (lit, dist huffCode) {
	litFreq, distFreq := tokenCounts(toks, stride)
	for i := range litFreq {
		litFreq[i]++
	}
	upSym, _, _ := distSym(min(stride, maxDistance))
	distFreq[0]++
	distFreq[upSym]++
	return newHuffCode(litFreq[:], maxCodeLen), newHuffCode(distFreq[:], maxCodeLen)
}

// tokenCounts counts the symbols of toks, rows stride bytes long, and one
// end of block.
func tokenCounts(toks []token, stride int) (litFreq [numLitLen]uint32, distFreq [numDist]uint32) {
	upSym, _, _ := distSym(min(stride, maxDistance))
	for _, t := range toks {
		switch {
		case t&matchFlag == 0:
			litFreq[t]++
		case t&1 == 1:
			litFreq[lengthSym[t>>8&0x1ff]]++
			distFreq[upSym]++
		default:
			litFreq[lengthSym[t>>8&0x1ff]]++
			distFreq[0]++
		}
	}
	litFreq[endOfBlock]++
	return litFreq, distFreq
}

// writeTokens writes toks, rows stride bytes long, with the codes.
func writeTokens(w *bitWriter, toks []token, lit, dist *huffCode, stride int) {
	upSym, upExtra, upBits := distSym(min(stride, maxDistance))
	for _, t := range toks {
		if t&matchFlag == 0 {
			w.sym(lit, int(t))
			continue
		}
		n := int(t>>8) & 0x1ff
		s := lengthSym[n]
		w.sym(lit, int(s))
		if eb := lengthBits[s-257]; eb > 0 {
			w.write(uint32(n-int(lengthBase[s-257])), eb)
		}
		if t&1 == 1 {
			w.sym(dist, upSym)
			if upBits > 0 {
				w.write(upExtra, upBits)
			}
		} else {
			w.sym(dist, 0)
		}
	}
}

// rowDeflate appends to out raw compressed as a zlib stream, raw being
// rows of stride bytes each, with codes made for it. With base (an image
// of the same size), it is written with base's codes instead, and the
// rows raw shares with base, where the row above is shared too, are
// written as the bits base holds for them.
func (z *deflateBuf) rowDeflate(out, raw []byte, stride int, base *rowCache) []byte {
	if base != nil && (base.stride != stride || len(base.raw) != len(raw)) {
		base = nil
	}
	if base != nil {
		return z.rowDeflateOver(out, raw, base)
	}
	toks := z.tokens[:0]
	sum := uint32(1)
	for r := 0; r*stride < len(raw); r++ {
		lo, hi := r*stride, min((r+1)*stride, len(raw))
		toks = rowTokens(toks, raw, stride, r)
		sum = adler32Combine(sum, adler32.Checksum(raw[lo:hi]), hi-lo)
	}
	z.tokens = toks
	litFreq, distFreq := tokenCounts(toks, stride)
	lit := newHuffCode(litFreq[:], maxCodeLen)
	dist := newHuffCode(distFreq[:], maxCodeLen)

	out = append(out, 0x78, 0x01) // deflate, 32 KB window, fastest
	w := bitWriter{out: out}
	w.write(0b101, 3) // the last block, dynamic codes
	writeCodes(&w, &lit, &dist)
	writeTokens(&w, toks, &lit, &dist, stride)
	w.sym(&lit, endOfBlock)
	w.flush()
	return binary.BigEndian.AppendUint32(w.out, sum)
}

// rowDeflateOver is rowDeflate against base.
func (z *deflateBuf) rowDeflateOver(out, raw []byte, base *rowCache) []byte {
	stride := base.stride
	out = append(out, 0x78, 0x01) // deflate, 32 KB window, fastest
	w := bitWriter{out: out}
	bitsTo(&w, base.head.words, base.head.n)
	above := false // the row above is base's
	sum := uint32(1)
	for r := 0; r*stride < len(raw); r++ {
		lo, hi := r*stride, min((r+1)*stride, len(raw))
		same := bytes.Equal(raw[lo:hi], base.raw[lo:hi])
		if same && (r == 0 || above) {
			bitsTo(&w, base.bits[base.start[r]:base.start[r+1]], int(base.nbits[r]))
		} else {
			z.tokens = rowTokens(z.tokens[:0], raw, stride, r)
			writeTokens(&w, z.tokens, &base.lit, &base.dist, stride)
		}
		if same {
			sum = adler32Combine(sum, base.sums[r], hi-lo)
		} else {
			sum = adler32Combine(sum, adler32.Checksum(raw[lo:hi]), hi-lo)
		}
		above = same
	}
	w.sym(&base.lit, endOfBlock)
	w.flush()
	return binary.BigEndian.AppendUint32(w.out, sum)
}

// adler32Combine returns the Adler-32 checksum of a then b from theirs,
// sa and sb, and b's length: the first sum of b's bytes grows by sa's,
// the second by n times that (RFC 1950, section 8.2).
func adler32Combine(sa, sb uint32, n int) uint32 {
	const mod = 65521
	rem := uint64(n % mod)
	a1, b1 := uint64(sa&0xffff), uint64(sa>>16)
	a2, b2 := uint64(sb&0xffff), uint64(sb>>16)
	a := (a1 + a2 + mod - 1) % mod
	b := (b1 + b2 + rem*a1 + mod - rem) % mod
	return uint32(b<<16 | a)
}

// writeCodes writes the header of a dynamic block: the code lengths of
// both codes, themselves run-length coded and Huffman coded (RFC 1951,
// section 3.2.7).
func writeCodes(w *bitWriter, lit, dist *huffCode) {
	nlit := numLitLen
	for nlit > 257 && lit.len[nlit-1] == 0 {
		nlit--
	}
	ndist := numDist
	for ndist > 1 && dist.len[ndist-1] == 0 {
		ndist--
	}
	lens := append(append([]uint8(nil), lit.len[:nlit]...), dist.len[:ndist]...)
	// Run-length code: 16 repeats the previous length 3-6 times, 17 and 18
	// give 3-10 and 11-138 zeros.
	type rl struct {
		sym   uint8
		extra uint32
	}
	var runs []rl
	var clcFreq [19]uint32
	for i := 0; i < len(lens); {
		l := lens[i]
		n := 1
		for i+n < len(lens) && lens[i+n] == l {
			n++
		}
		i += n
		if l == 0 {
			for n >= 11 {
				k := min(n, 138)
				runs = append(runs, rl{18, uint32(k - 11)})
				n -= k
			}
			if n >= 3 {
				runs = append(runs, rl{17, uint32(n - 3)})
				n = 0
			}
		} else {
			runs = append(runs, rl{l, 0})
			n--
			for n >= 3 {
				k := min(n, 6)
				runs = append(runs, rl{16, uint32(k - 3)})
				n -= k
			}
		}
		for ; n > 0; n-- {
			runs = append(runs, rl{l, 0})
		}
	}
	for _, r := range runs {
		clcFreq[r.sym]++
	}
	clc := newHuffCode(clcFreq[:], maxCLCLen)
	nclc := 19
	for nclc > 4 && clc.len[clcOrder[nclc-1]] == 0 {
		nclc--
	}
	w.write(uint32(nlit-257), 5)
	w.write(uint32(ndist-1), 5)
	w.write(uint32(nclc-4), 4)
	for _, s := range clcOrder[:nclc] {
		w.write(uint32(clc.len[s]), 3)
	}
	for _, r := range runs {
		w.sym(&clc, int(r.sym))
		switch r.sym {
		case 16:
			w.write(r.extra, 2)
		case 17:
			w.write(r.extra, 3)
		case 18:
			w.write(r.extra, 7)
		}
	}
}
