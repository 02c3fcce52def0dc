"use strict";
// The checks every replay page makes, whatever the game system: each die
// derived again from the revealed seed, the seed against its commitment
// and the log's hash chain up to the head, with WebCrypto only (store
// package documentation: Dice, Log). A page's own script draws the game
// and calls attuVerify.verify with the data its markup carries.
const attuVerify = (function () {
  function unhex(s) {
    if (!/^([0-9a-f]{2})*$/.test(s)) return null;
    const b = new Uint8Array(s.length / 2);
    for (let i = 0; i < b.length; i++) b[i] = parseInt(s.substr(2 * i, 2), 16);
    return b;
  }
  function tohex(b) {
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }
  async function sha256hex(bytes) {
    return tohex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
  }
  function hmacKey(seed) {
    return crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }
  // derive returns die number n rolled as a die of faces faces: B0 =
  // HMAC-SHA256(seed, n as 8 bytes big-endian), then Bk = HMAC(seed, n ‖ k)
  // for k = 1, 2...; the first byte below 256 - (256 mod faces) gives the
  // face, byte mod faces, 0 reading as faces (a d10: below 250, 0 reads 10).
  async function derive(key, n, faces) {
    const limit = 256 - (256 % faces);
    const raw = [];
    for (let k = 0; ; k++) {
      const msg = new Uint8Array(k === 0 ? 8 : 16);
      const dv = new DataView(msg.buffer);
      dv.setBigUint64(0, BigInt(n));
      if (k > 0) dv.setBigUint64(8, BigInt(k));
      const block = new Uint8Array(await crypto.subtle.sign("HMAC", key, msg));
      for (const b of block) {
        raw.push(b);
        if (b < limit) {
          const f = b % faces;
          return { face: f === 0 ? faces : f, raw: raw };
        }
      }
    }
  }

  function short(h) {
    return (h || "").slice(0, 16) + "…";
  }

  // Mismatch is a check that failed: its message says what does not match.
  class Mismatch extends Error {}

  // chain checks the seed against the commitment and each entry's bytes
  // and link, and returns the dice range each hashed entry records.
  async function chain(D, seed) {
    const commitment = await sha256hex(seed);
    if (commitment !== D.commitment) {
      throw new Mismatch("the seed hashes to " + short(commitment) + ", not to the commitment " + short(D.commitment));
    }
    const enc = new TextEncoder();
    const hashes = await Promise.all(D.entries.map((e) => sha256hex(enc.encode(e.json))));
    const ranges = [];
    let prev = "";
    for (let i = 0; i < D.entries.length; i++) {
      const seq = i + 1;
      const e = D.entries[i];
      if (hashes[i] !== e.hash) {
        throw new Mismatch("entry " + seq + " is altered: it hashes to " + short(hashes[i]) + ", the log lists " + short(e.hash));
      }
      const obj = JSON.parse(e.json);
      if (obj.seq !== seq) throw new Mismatch("entry " + seq + " is numbered " + obj.seq);
      if (obj.prev !== prev) {
        throw new Mismatch("the link from entry " + seq + " to entry " + i + " is broken: it names " + short(obj.prev) + ", entry " + i + " hashes to " + short(prev));
      }
      if (seq === 1 && obj.commitment !== D.commitment) {
        throw new Mismatch("entry 1 commits to " + short(obj.commitment) + ", not to " + short(D.commitment));
      }
      ranges.push([obj.dice_from || 0, obj.dice_to || 0]);
      prev = hashes[i];
    }
    if (prev !== D.head) throw new Mismatch("the chain ends at " + short(prev) + ", not at the head " + short(D.head));
    return ranges;
  }

  // owners returns which entry rolled each die, by the hashed entries.
  function owners(D, ranges) {
    const owner = [];
    let next = 1;
    ranges.forEach(([from, to], i) => {
      if (to === 0) return;
      if (from !== next) throw new Mismatch("entry " + (i + 1) + " rolls dice from " + from + ", but the next die was " + next);
      for (let n = from; n < to; n++) owner[n] = i + 1;
      next = to;
    });
    if (next - 1 !== D.dice.length) {
      throw new Mismatch("the log's entries rolled " + (next - 1) + " dice, the dice log holds " + D.dice.length);
    }
    return owner;
  }

  // verify checks the data D of a page (commitment, seed, head, entries
  // with their canonical JSON and hash, dice as recorded) and resolves to
  // the line saying all is verified, or rejects with a Mismatch naming
  // the first thing that does not match. dieState[n] becomes true for
  // each die the seed gives as recorded, false for one it does not;
  // dieName(d) names a die in the page's words.
  async function verify(D, dieState, dieName) {
    if (!D.seed) throw new Mismatch("the seed is not in this file (the game had not ended when it was exported), so no die can be checked");
    const seed = unhex(D.seed);
    if (!seed || seed.length !== 32) throw new Mismatch("the seed is not 32 bytes of hex");
    const owner = owners(D, await chain(D, seed));
    const key = await hmacKey(seed);
    // Each die as the dice log records it: its faces, none for a d10.
    const derived = await Promise.all(D.dice.map((d, i) => derive(key, i + 1, d.faces || 10)));
    let bad = null;
    D.dice.forEach((d, i) => {
      const n = i + 1;
      const got = derived[i], raw = d.r || [];
      const ok = d.n === n && d.e === owner[n] && got.face === d.f && got.raw.length === raw.length && got.raw.every((b, j) => b === raw[j]);
      dieState[n] = ok;
      if (ok || bad) return;
      if (d.n !== n) bad = "the dice log is out of order at position " + n + " (die " + d.n + ")";
      else if (d.e !== owner[n]) bad = dieName(d) + ": the dice log gives it to entry " + d.e + ", the log to entry " + owner[n];
      else if (got.face !== d.f) bad = dieName(d) + ": the log records " + d.f + ", the seed gives " + got.face;
      else bad = dieName(d) + ": the log records the bytes " + raw.join(" ") + ", the seed gives " + got.raw.join(" ");
    });
    if (bad) throw new Mismatch(bad);
    return "✓ all " + D.dice.length.toLocaleString("en-US") + " dice verified: the seed matches the commitment " + short(D.commitment) +
      " and the " + D.entries.length.toLocaleString("en-US") + " log entries chain up to the head " + short(D.head);
  }

  // deriveHex derives die n of faces faces (none: a d10) from a seed in
  // hex, for the tests that hold the page to the store's test vectors.
  async function deriveHex(seedHex, n, faces) {
    return derive(await hmacKey(unhex(seedHex)), n, faces || 10);
  }

  // report runs verify and writes its verdict into the element verdict
  // (data-state ok or bad), then calls done.
  function report(D, dieState, dieName, verdict, done) {
    return verify(D, dieState, dieName).then(
      (msg) => {
        verdict.dataset.state = "ok";
        verdict.textContent = msg;
      },
      (err) => {
        verdict.dataset.state = "bad";
        verdict.textContent = "✗ " + (err instanceof Mismatch ? err.message : "the check could not run: " + err);
      }).then(done);
  }

  return { derive: deriveHex, verify, report, Mismatch };
})();
