package templates

import (
	"encoding/binary"
	"hash/adler32"
	"math/bits"
)

// The pictures are mostly large fields of one colour cut by hex edges, so
// nearly every row repeats the row above it, and what does not repeat
// runs in one colour. rowDeflate compresses such rows in a fraction of
// the time a general DEFLATE compressor takes: it looks for only two
// matches at each place, the same bytes one row up and a run of the byte
// just before, and writes them with DEFLATE's fixed Huffman codes (RFC
// 1951, section 3.2.6), so there is no table to build or send. The output
// is an ordinary zlib stream (RFC 1950) any PNG reader decodes.

// deflateCode is a Huffman code with its extra bits, ready to write: bits
// least significant first, n of them.
type deflateCode struct {
	bits uint32
	n    uint8
}

var (
	// fixedLit are the codes of the literals 0 to 255 and of the end of
	// block (256).
	fixedLit [257]deflateCode
	// fixedLen is the code of each match length 3 to 258, extra bits
	// included.
	fixedLen [259]deflateCode
)

func init() {
	for v := range 257 {
		var code, n uint32
		switch {
		case v < 144:
			code, n = 0x30+uint32(v), 8
		case v < 256:
			code, n = 0x190+uint32(v-144), 9
		default:
			code, n = uint32(v-256), 7
		}
		fixedLit[v] = deflateCode{reverse(code, n), uint8(n)}
	}
	// The length symbols 257 to 285, each with its first length and its
	// number of extra bits (RFC 1951, section 3.2.5).
	base := []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	extra := []uint32{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	for i, b := range base {
		sym := uint32(257 + i)
		var code, n uint32
		if sym < 280 {
			code, n = sym-256, 7
		} else {
			code, n = 0xc0+sym-280, 8
		}
		last := 258
		if i+1 < len(base) && sym != 285 {
			last = base[i+1] - 1
		}
		for l := b; l <= last; l++ {
			fixedLen[l] = deflateCode{reverse(code, n) | uint32(l-b)<<n, uint8(n + extra[i])}
		}
	}
}

// reverse returns the n low bits of code in reverse order: Huffman codes
// are packed from their most significant bit.
func reverse(code, n uint32) uint32 {
	return bits.Reverse32(code) >> (32 - n)
}

// distanceCode is the fixed code of distance d (1 to 32768) with its
// extra bits.
func distanceCode(d int) deflateCode {
	if d <= 4 {
		return deflateCode{reverse(uint32(d-1), 5), 5}
	}
	// Codes 4 and up come in pairs per power of two: 2k+2 and 2k+3
	// cover 2^(k+1)+1 to 2^(k+2), k extra bits each.
	k := bits.Len(uint(d-1)) - 2
	half := uint32((d - 1) >> k & 1)
	sym := uint32(2*k+2) + half
	first := 1<<(k+1) + int(half)<<k + 1
	return deflateCode{reverse(sym, 5) | uint32(d-first)<<5, uint8(5 + k)}
}

// bitWriter packs codes into bytes, least significant bit first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) write(c deflateCode) {
	w.acc |= uint64(c.bits) << w.nacc
	w.nacc += uint(c.n)
	if w.nacc >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.nacc -= 32
	}
}

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

// rowDeflate appends to out raw compressed as a zlib stream, raw being
// rows of stride bytes each (at most 32768).
func rowDeflate(out, raw []byte, stride int) []byte {
	out = append(out, 0x78, 0x01) // deflate, 32 KB window, fastest
	w := bitWriter{out: out}
	w.write(deflateCode{0b011, 3}) // the last block, fixed codes
	up, run := distanceCode(stride), distanceCode(1)
	for i := 0; i < len(raw); {
		most := min(258, len(raw)-i)
		n, d := 0, run
		if i >= stride {
			n, d = matchLen(raw[i-stride:], raw[i:], most), up
		}
		if n < most && i >= 1 && raw[i-1] == raw[i] {
			if r := matchLen(raw[i-1:], raw[i:], most); r > n {
				n, d = r, run
			}
		}
		if n < 3 {
			w.write(fixedLit[raw[i]])
			i++
			continue
		}
		w.write(fixedLen[n])
		w.write(d)
		i += n
	}
	w.write(fixedLit[256])
	w.flush()
	return binary.BigEndian.AppendUint32(w.out, adler32.Checksum(raw))
}
