/* duizhao search worker: Material's search protocol over a Pagefind index.

   Material's search box (query field, result list, keyboard, instant navigation) talks to a
   web worker whose URL is the `search` entry of its `__config`; duizhao's template points it
   here (plugins/duizhao/search/theme). The protocol: SETUP (the index Material fetched: with
   Pagefind it holds no documents) → READY; QUERY (the text) → RESULT ({items: [[doc, …]],
   last}), each doc {location, title, text, score, terms} as Material's own worker returns them;
   title and text are HTML, so every piece of page text is escaped here. A query is answered
   once or twice (its first results, then all of them); `last` (which Material does not read)
   says no other answer to it follows, so that a script asking the worker knows it is done.

   Pagefind (search/pagefind/ in the site) is loaded when the reader opens the search box (the
   page says so on a BroadcastChannel) or at the first query, never at page load. A page's hits
   are cut at the anchors Pagefind recorded: a numbered paragraph (#P042), a figure (#fig-3), a
   heading; `dz-end` closes a paragraph or figure. A long page is indexed in parts, each with
   the page's URL and title and the heading it starts under as metadata; the hits of a page's
   parts make one result, as Material groups a page's sections. */
"use strict"

var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3
var MAX_QUERY = 80      // characters searched of a query (a pasted sentence still fits)
var MAX_PARTS = 16      // parts of pages (Pagefind's results) whose hits are shown
var FIRST_PARTS = 1     // parts loaded before the first results are posted
var REST_DELAY = 100    // ms between the first results and fetching the rest
var MAX_HITS = 12       // hits shown per page
var EXCERPT = 32        // words around the densest hits
var ROOT = new URL("../../", self.location.href).href  // the site (this file: assets/duizhao/)
var BASE = new URL("search/pagefind/", ROOT).href
// A Chinese site's index comes with its words in this many shards (?words=N on this file).
var SHARDS = parseInt(new URLSearchParams(self.location.search).get("words") || "0", 10) || 0
var MAX_WORD = 12       // characters of the longest word the query segmentation tries
var HAN = /[\u2e80-\u2fdf\u3005\u3007\u3021-\u3029\u3038-\u303b\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{3134f}]+/gu
var CJK = /[\u00b7\u2018-\u201f\u2026\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u{20000}-\u{3134f}]/u
var CJK_PUNCT = /[\u00b7\u2018-\u201f\u2026\u3000-\u303f\uff00-\uffef]/

var pagefind = null
var latest = 0

/* Pagefind's start is a chain of round trips: pagefind.js, then its entry file, then the
   metadata and the WebAssembly, then (at the query) an index chunk, then the text of a part.
   The worker fetches the entry alongside pagefind.js and the metadata and the WebAssembly as
   soon as the entry is in, and answers Pagefind's own requests for them with what it fetched
   (`fetch` is wrapped for the files under BASE). Pagefind's files are gzip with a signature
   inside; the worker inflates them with the browser's DecompressionStream, and Pagefind,
   seeing the signature, skips its own JavaScript inflate. */
var nativeFetch = self.fetch.bind(self)
var PF_FILE = /\.(pf_meta|pf_index|pf_filter|pf_fragment|pagefind)$/
var early = new Map()  // URL (without query) → Promise of {status, body}, used once
var asked = new Set()  // the URLs Pagefind asked for
var chunkList = null   // Promise of the index chunks [{from, to, hash}] of the metadata
var ready = null       // settles when Pagefind's WebAssembly is instantiated

function inflate(buffer) {
  var bytes = new Uint8Array(buffer)
  if (typeof DecompressionStream === "undefined" || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return Promise.resolve(buffer)
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))
  return new Response(stream).arrayBuffer().catch(function () { return buffer })
}

/* Pagefind's file at `url` as the browser gives it: {status, body}, inflated and unpacked
   where the browser can (a file an older build repacked in place, still in the cache). */
function grabPlain(url) {
  return nativeFetch(url).then(function (r) {
    return r.arrayBuffer().then(function (body) {
      return r.ok && PF_FILE.test(url) ? inflate(body).then(unpack) : body
    }).then(function (body) { return { status: r.status, body: body } })
  })
}

/* The build writes the repacked form of the metadata and of the largest index chunks beside
   Pagefind's own files (NAME.dz, search/packing.py), where that makes them smaller, and names
   them in LIST with the build's metadata files. Only a browser with DecompressionStream can
   read them (Safari 16.4, Firefox 113, Chrome 80 and later): it fetches the list with the
   entry, and a file's NAME.dz where the list gives NAME and names the entry's metadata (the
   two may come from two builds); the metadata's NAME.dz also when the entry is in before the
   list, at once. Any other browser gets Pagefind's own files. A repacked file that is not
   there, or does not arrive, inflate or unpack whole, is fetched as Pagefind's. */
var LIST = "duizhao-packed.json", PACKED_SUFFIX = ".dz"
var NONE = new Set()
var repacked = null    // Promise of the names (under BASE) repacked for the entry's index
var listed             // the list once it is in (null: none, or no DecompressionStream)

function grab(url) {
  if (repacked === null || !PF_FILE.test(url)) return grabPlain(url)
  return repacked.then(function (names) {
    if (!names.has(url.slice(BASE.length))) return grabPlain(url)
    return grabPacked(url + PACKED_SUFFIX).catch(function () { return grabPlain(url) })
  })
}

function grabPacked(url) {
  return nativeFetch(url).then(function (r) {
    if (!r.ok) throw new Error("no " + url)
    return r.arrayBuffer()
  }).then(function (body) {
    var bytes = new Uint8Array(body)
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return body  // the server inflated it
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))
    return new Response(stream).arrayBuffer()
  }).then(function (body) {
    var out = unpack(body)
    if (out === body && new TextDecoder().decode(new Uint8Array(body, 0, 12)) !== SIGNATURE)
      throw new Error("neither repacked nor Pagefind's: " + url)
    return { status: 200, body: out }
  })
}

function repackedFor(index, list) {
  var meta = "pagefind." + index.hash + ".pf_meta"
  var ok = list && Array.isArray(list.metas) && Array.isArray(list.packed) && list.metas.indexOf(meta) >= 0
  return ok ? new Set(list.packed) : NONE
}

/* The largest metadata and index chunks are repacked at build time (search/packing.py):
   the CBOR's item heads, small integers, the high and low bytes of the others, arguments,
   and strings (each sharing a start with the one before) in streams of their own. This puts
   back the bytes Pagefind wrote, its signature first. */
var PACKED = "dz_pack1", SIGNATURE = "pagefind_dcd"

function unpack(buffer) {
  var b = new Uint8Array(buffer)
  if (b.length < 36 || new TextDecoder().decode(b.subarray(0, 8)) !== PACKED) return buffer
  var view = new DataView(buffer), n = []
  for (var i = 0; i < 7; i++) n.push(view.getUint32(8 + 4 * i))
  var h = 36, heads = h + n[1], sm = h + n[1], lo = sm + n[2], hi = lo + n[3], ar = hi + n[4], sh = ar + n[5], st = sh + n[6]
  var ends = [lo, hi, ar, sh, st, b.length]  // where each stream ends: a cut file fails
  var out = new Uint8Array(12 + n[0]), o = 12, last = 0  // where the last string is in out
  out.set(utf8.encode(SIGNATURE), 0)
  for (var at = h; at < heads; at++) {
    var byte = b[at], major = byte >> 5, info = byte & 31, v, k
    if (major <= 1) {
      if (info >= 2) {  // 4 or 8 bytes, as written
        k = info === 2 ? 4 : 8
        out[o++] = major << 5 | (info === 2 ? 26 : 27)
        out.set(b.subarray(ar, ar + k), o); o += k; ar += k
        continue
      }
      v = info === 0 ? b[sm++] : b[hi++] << 8 | b[lo++]
      if (v < 24) out[o++] = major << 5 | v
      else if (v < 256) { out[o++] = major << 5 | 24; out[o++] = v }
      else { out[o++] = major << 5 | 25; out[o++] = v >> 8; out[o++] = v & 255 }
      continue
    }
    out[o++] = byte
    var len = info
    k = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
    if (k) { len = 0; for (var j = 0; j < k; j++) { len = len * 256 + b[ar]; out[o++] = b[ar++] } }
    if ((major === 2 || major === 3) && info !== 31) {
      var common = b[sh++]
      out.copyWithin(o, last, last + common)
      out.set(b.subarray(st, st + len - common), o + common)
      st += len - common
      last = o; o += len
    }
  }
  if (o !== out.length || [sm, lo, hi, ar, sh, st].join() !== ends.join()) throw new Error("packed file")
  return out.buffer
}

self.fetch = function (input, init) {
  var url = typeof input === "string" ? input : input instanceof URL ? input.href : null
  if (url === null || url.indexOf(BASE) !== 0) return nativeFetch(input, init)
  var key = url.replace(/[?#].*$/, "")
  asked.add(key)
  var got = early.get(key)
  early.delete(key)
  if (!got) {
    if (!PF_FILE.test(key)) return nativeFetch(input, init)
    got = grab(key)
  }
  return got.then(function (g) { return new Response(g.body, { status: g.status }) })
}

function prefetch() {
  var entry = BASE + "pagefind-entry.json", stamp = "?ts=" + Date.now()
  var got = grabPlain(entry + stamp)
  early.set(entry, got)
  var list = typeof DecompressionStream === "undefined" ? Promise.resolve(null)
    : grabPlain(BASE + LIST + stamp).then(function (g) {
      return g.status === 200 ? JSON.parse(new TextDecoder().decode(g.body)) : null
    }).catch(function () { return null })
  listed = undefined
  list.then(function (l) { listed = l })
  var chosen = got.then(function (g) {
    var languages = g.status === 200 && JSON.parse(new TextDecoder().decode(g.body)).languages
    if (!languages) throw new Error("no index")
    // The index Pagefind picks in a worker (no page language): the largest.
    var index = languages.unknown || Object.values(languages).sort(function (a, b) {
      return b.page_count - a.page_count
    })[0]
    if (!index) throw new Error("no index")
    return index
  })
  repacked = Promise.all([chosen, list]).then(function (both) {
    return repackedFor(both[0], both[1])
  }).catch(function () { return NONE })
  chosen.then(function (index) {
    var meta = BASE + "pagefind." + index.hash + ".pf_meta"
    var wasm = BASE + "wasm." + (index.wasm || "unknown") + ".pagefind"
    // The metadata's NAME.dz as the list says, or, the list not in yet (a slow link may bring
    // it after the entry), at once: where repacking did not pay there is none.
    var packed = typeof DecompressionStream !== "undefined" &&
      (listed === undefined || repackedFor(index, listed).has(meta.slice(BASE.length)))
    if (!early.has(meta)) early.set(meta, !packed ? grabPlain(meta)
      : grabPacked(meta + PACKED_SUFFIX).catch(function () { return grabPlain(meta) }))
    if (!early.has(wasm)) early.set(wasm, grabPlain(wasm))
    early.get(wasm).then(function (g) { if (g.status !== 200) throw new Error("no wasm") })
      .catch(function () { if (ready && ready.resolve) ready.resolve() })
    chunkList = early.get(meta).then(function (g) { return g.status === 200 ? chunksOf(g.body) : [] })
    chunkList.catch(function () {})
  }).catch(function () {
    // No index to wait for: Pagefind fails at once, and the query with it.
    if (ready && ready.resolve) ready.resolve()
  })
}

/* The metadata's index chunks (its CBOR: [version, [[page, words]…], [[from, to, hash]…], …],
   pagefind_core_search/src/metadata), so that the worker fetches a query's chunk while
   Pagefind's WebAssembly is still on its way, as Pagefind will ask for it (request_indexes:
   for each word of the query the first chunk with from ≤ word ≤ to). */
function chunksOf(buffer) {
  var bytes = new Uint8Array(buffer), at = 0, text = new TextDecoder()
  if (text.decode(bytes.subarray(0, 12)) === "pagefind_dcd") at = 12
  function head(major) {
    var b = bytes[at++], info = b & 31, n = info
    if (b >> 5 !== major) throw new Error("metadata")
    if (info === 24) n = bytes[at++]
    else if (info === 25) { n = bytes[at] << 8 | bytes[at + 1]; at += 2 }
    else if (info === 26) { n = ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16 | bytes[at + 2] << 8 | bytes[at + 3]); at += 4 }
    else if (info > 26) throw new Error("metadata")
    return n
  }
  function str() { var n = head(3); at += n; return text.decode(bytes.subarray(at - n, at)) }
  head(4); str()
  for (var pages = head(4); pages > 0; pages--) { head(4); str(); head(0) }
  var chunks = []
  for (var n = head(4); n > 0; n--) {
    head(4)
    var from = str(), to = str()
    chunks.push({ from: utf8.encode(from), to: utf8.encode(to), hash: str() })
  }
  return chunks
}

var utf8 = new TextEncoder()

function compare(a, b) {  // byte strings, as Rust compares str
  for (var i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

function cut(bytes, n) {  // bytes[0..n], or null inside a character (Rust's str::get)
  return n < bytes.length && (bytes[n] & 0xc0) === 0x80 ? null : bytes.subarray(0, n)
}

/* Pagefind's choice of chunks for its words (pagefind_web's request_indexes): the first chunk
   with from ≤ word ≤ to; when no word has one, the first whose bounds match the word's start
   (both cut to the shorter). Pagefind 1.5 may ask for more (the chunks of a prefix's longer
   words: `atten`, `流水线 并行`); what this picks it asked for in every query checked, so a
   guess costs no bytes, and what it misses Pagefind fetches itself as before. */
function chunksFor(words, chunks) {
  function pick(loose) {
    var out = new Set()
    words.forEach(function (word) {
      for (var i = 0; i < chunks.length; i++) {
        var c = chunks[i], ok
        if (!loose) {
          ok = compare(word, c.from) >= 0 && compare(word, c.to) <= 0
        } else {
          var tp = cut(word, Math.min(word.length, c.from.length)), cp = cut(c.from, Math.min(word.length, c.from.length))
          var tq = cut(word, Math.min(word.length, c.to.length)), cq = cut(c.to, Math.min(word.length, c.to.length))
          ok = tp !== null && cp !== null && tq !== null && cq !== null && compare(tp, cp) >= 0 && compare(tq, cq) <= 0
        }
        if (ok) { out.add(c.hash); return }
      }
    })
    return out
  }
  var found = pick(false)
  return found.size ? found : pick(true)
}

var PUNCT = /^\p{Pd}|\p{Pe}|\p{Pf}|\p{Pi}|\p{Po}|\p{Ps}$/u  // Pagefind's, as it is written

function prefetchChunks(query) {
  if (chunkList === null) return
  chunkList.then(function (chunks) {
    // The query as Pagefind's search normalises it before request_indexes.
    var term = ""
    for (var c of query) term += PUNCT.test(c) ? "" : c.toLocaleLowerCase()
    term = term.replace(/\s{2,}/g, " ").trim().normalize("NFD").replace(/\p{M}/gu, "")
    if (!term) return
    var words = term.split(" ").map(function (w) { return utf8.encode(w) })
    chunksFor(words, chunks).forEach(function (hash) {
      var url = BASE + "index/" + hash + ".pf_index"
      if (!asked.has(url) && !early.has(url)) early.set(url, grab(url))
    })
  }).catch(function () {})
}

/* Pagefind waits for its WebAssembly by polling every 50 ms; a query sent after the
   WebAssembly is in (and Pagefind's start, which follows it at once) skips that wait. */
var instantiate = WebAssembly.instantiate
WebAssembly.instantiate = function () {
  var done = instantiate.apply(WebAssembly, arguments)
  if (ready && ready.resolve) {
    var resolve = ready.resolve
    ready.resolve = null
    done.then(function () { setTimeout(resolve, 0) }, function () { resolve() })
  }
  return done
}

function load() {
  if (pagefind === null) {
    performance.mark("dz load")
    var resolve
    ready = new Promise(function (r) { resolve = r })
    ready.resolve = resolve
    prefetch()
    // Pagefind's first Intl.Segmenter costs ~20 ms (ICU's data); made now, not at the query.
    setTimeout(function () {
      try { Array.from(new Intl.Segmenter("unknown", { granularity: "grapheme" }).segment("a 字")) } catch (e) {}
    }, 0)
    var started = import(BASE + "pagefind.js").then(function (pf) {
      return pf.options({ basePath: BASE, excerptLength: EXCERPT })
        .then(function () { return pf.init() })
        .then(function () { return pf })
    })
    // Ready when the WebAssembly is instantiated, or after 3 s whatever happened.
    var waited = ready
    pagefind = started.then(function (pf) {
      return Promise.race([waited, new Promise(function (r) { setTimeout(r, 3000) })])
        .then(function () { performance.mark("dz ready"); return pf })
    })
    pagefind.catch(function (err) {
      console.warn("duizhao search: cannot load the index", err)
      pagefind = null
      early.clear()
    })
  }
  return pagefind
}

if (typeof BroadcastChannel !== "undefined") {
  new BroadcastChannel("duizhao-search").onmessage = function () { load() }
}

/* The query with its Chinese cut into the index's words (longest first), as the build cut
   the pages' text with jieba: the words come from the shards of the query's characters. */
var shards = new Map()

function shard(n) {
  if (!shards.has(n)) {
    shards.set(n, fetch(BASE + "words/" + n + ".json").then(function (r) {
      return r.ok ? r.json() : []
    }).catch(function () { return [] }))
  }
  return shards.get(n)
}

function segmentQuery(query) {
  var runs = query.match(HAN)
  if (!SHARDS || !runs) return Promise.resolve(query)
  var needed = new Set()
  runs.forEach(function (run) {
    for (var c of run) needed.add(c.codePointAt(0) % SHARDS)
  })
  return Promise.all(Array.from(needed, shard)).then(function (lists) {
    var words = new Set()
    lists.forEach(function (list) { list.forEach(function (w) { words.add(w) }) })
    return query.replace(HAN, function (run) {
      var chars = Array.from(run), out = []
      for (var i = 0; i < chars.length;) {
        var n = Math.min(MAX_WORD, chars.length - i)
        while (n > 1 && !words.has(chars.slice(i, i + n).join(""))) n--
        out.push(chars.slice(i, i + n).join(""))
        i += n
      }
      return " " + out.join(" ") + " "
    }).replace(/\s+/g, " ").trim()
  })
}

/* The words of a fragment's text and what separates them: Pagefind's word positions count
   the words of its text split at white space (or at U+200B, where Pagefind segmented it). */
function tokens(data) {
  var raw = data.raw_content || data.content || ""
  if (raw.indexOf("\u200B") >= 0) {
    var parts = raw.split("\u200B")
    return { words: parts, seps: parts.map(function () { return "" }) }
  }
  var split = raw.split(/(\s+)/), words = [], seps = []
  for (var i = 0; i < split.length; i += 2) {
    words.push(split[i])
    seps.push(i + 1 < split.length ? split[i + 1] : "")
  }
  return { words: words, seps: seps }
}

/* What separates two words as the author wrote it: the build put spaces around runs of
   Chinese, and Pagefind keeps one space for any. So no space between two Chinese words or
   next to Chinese punctuation; a space between Chinese and Latin is kept (authors write one). */
function separator(sep, before, after) {
  if (!/^\s+$/.test(sep)) return sep
  var a = before.slice(-1), b = after.charAt(0)
  if ((CJK.test(a) && CJK.test(b)) || CJK_PUNCT.test(a) || CJK_PUNCT.test(b)) return ""
  return " "
}

/* A heading's text as written (see separator). */
function unsegment(text) {
  var parts = text.split(/(\s+)/), out = parts[0] || ""
  for (var i = 1; i + 1 < parts.length; i += 2)
    out += separator(parts[i], parts[i - 1], parts[i + 1]) + parts[i + 1]
  return out
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]
  })
}

/* What an anchor starts: a paragraph, a figure or table, a heading, an end of block. */
function kindOf(anchor) {
  var id = anchor.id || ""
  if (id === "dz-end") return "end"
  if (/^P\d+$/.test(id)) return "paragraph"
  if (/^(fig|table)-\w+$/.test(id) && anchor.element === "figure") return "figure"
  if (/^h[1-6]$/i.test(anchor.element) && id) return "heading"
  return null
}

function label(anchor, kind) {
  if (kind === "paragraph") return anchor.id
  var m = /^(fig|table)-(\w+)$/.exec(anchor.id)
  return m ? (m[1] === "table" ? "表 " : "图 ") + m[2] : anchor.id
}

/* The page cut into segments: [{start, end, location, title, kind}] in word positions. */
function segments(data) {
  var anchors = (data.anchors || []).slice().sort(function (a, b) { return a.location - b.location })
  var meta = data.meta || {}
  var page = { start: 0, location: "", title: meta.title || "", kind: "page" }
  if (meta.section_id)  // a later part of a page: it starts under this heading
    page = { start: 0, location: "#" + meta.section_id, title: meta.section || "", kind: "heading" }
  var out = [page]
  var section = page
  for (var i = 0; i < anchors.length; i++) {
    var anchor = anchors[i], kind = kindOf(anchor)
    if (kind === null) continue
    var text = unsegment((anchor.text || "").trim())
    var next
    if (kind === "heading") {
      if (anchor.element.toLowerCase() === "h1") continue  // the page itself
      next = { location: "#" + anchor.id, title: text || anchor.id, kind: kind }
      section = next
    } else if (kind === "end") {
      next = { location: section.location, title: section.title, kind: section.kind }
    } else {
      var heading = section.kind === "page" ? "" : " · " + section.title
      next = { location: "#" + anchor.id, title: label(anchor, kind) + heading, kind: kind }
    }
    next.start = anchor.location
    out.push(next)
  }
  for (var j = 0; j < out.length; j++)
    out[j].end = j + 1 < out.length ? out[j + 1].start : Infinity
  return out
}

/* The escaped excerpt of words [start, end) around the densest hits, hits in <mark>.
   `hits` are sorted by location and lie in [start, end); linear in their number. */
function excerpt(text, start, end, hits) {
  var words = text.words
  end = Math.min(end, words.length)
  var from = start
  if (end - start > EXCERPT && hits.length) {
    var best = -1, right = 0, left = 0, sum = 0
    for (var i = 0; i < hits.length; i++) {
      var lo = Math.max(start, Math.min(hits[i].location - (EXCERPT >> 2), end - EXCERPT))
      while (right < hits.length && hits[right].location < lo + EXCERPT)
        sum += hits[right++].balanced_score || 1
      while (left < right && hits[left].location < lo)
        sum -= hits[left++].balanced_score || 1
      if (sum > best) { best = sum; from = lo }
    }
  }
  var to = Math.min(end, from + EXCERPT)
  var marked = {}
  for (var h = 0; h < hits.length; h++) marked[hits[h].location] = true
  var parts = [], terms = {}
  for (var w = from; w < to; w++) {
    var word = words[w] || ""
    if (marked[w] && word.trim()) {
      parts.push("<mark>" + escapeHTML(word) + "</mark>")
      terms[word.trim().toLowerCase()] = true
    } else {
      parts.push(escapeHTML(word))
    }
    if (w + 1 < to) parts.push(separator(text.seps[w] || "", word, words[w + 1] || ""))
  }
  var out = parts.join("").trim()
  if (from > start) out = "…" + out
  if (to < end) out += "…"
  return { text: out, terms: terms }
}

/* The documents of one part's hits, by segment: [{location, title, text, score}]. */
function hitsOf(data, score, terms) {
  var words = tokens(data)
  var segs = segments(data)
  var hits = (data.weighted_locations || []).slice().sort(function (a, b) { return a.location - b.location })
  var groups = new Map()
  var s = 0
  for (var i = 0; i < hits.length; i++) {
    while (s + 1 < segs.length && segs[s + 1].start <= hits[i].location) s++
    var seg = segs[s]
    if (!groups.has(seg.location)) groups.set(seg.location, { seg: seg, hits: [], score: 0, parts: [] })
    var group = groups.get(seg.location)
    if (group.parts[group.parts.length - 1] !== seg) group.parts.push(seg)
    group.hits.push(hits[i])
    group.score += hits[i].balanced_score || 1
  }
  // A segment holding more of the query's words comes first (Pagefind's AND is by page).
  groups.forEach(function (g) {
    var distinct = new Set(g.hits.map(function (h) { return (words.words[h.location] || "").toLowerCase() }))
    g.score *= distinct.size * distinct.size
  })
  var top = 0
  groups.forEach(function (g) { top = Math.max(top, g.score) })
  var url = pageURL(data)
  var docs = []
  groups.forEach(function (g) {
    var seg = g.parts[0], inside = []
    for (var p = 0; p < g.parts.length; p++) {
      var part = g.parts[p]
      var own = g.hits.filter(function (h) { return h.location >= part.start && h.location < part.end })
      if (own.length > inside.length) { seg = part; inside = own }
    }
    var cut = excerpt(words, seg.start, seg.end, inside)
    for (var t in cut.terms) terms[t] = true
    docs.push({
      location: url + g.seg.location,
      title: escapeHTML(g.seg.title),
      text: cut.text ? "<p>" + cut.text + "</p>" : "",
      score: score * (top ? g.score / top : 1)
    })
  })
  return docs
}

function pageURL(data) {
  var url = data.meta && data.meta.url || String(data.url || "").replace(/^\//, "")
  return new URL(url, ROOT).href
}

/* Material's items: one per page, in the order of its best part; a page's hits best first,
   the page itself (location without "#") among them, last with score 0 if it has no hit. */
function items(datas, scores) {
  var pages = new Map()
  for (var i = 0; i < datas.length; i++) {
    var url = pageURL(datas[i])
    if (!pages.has(url)) pages.set(url, { title: datas[i].meta && datas[i].meta.title || "", docs: [], terms: {} })
    var page = pages.get(url)
    page.docs = page.docs.concat(hitsOf(datas[i], scores[i], page.terms))
  }
  var out = []
  pages.forEach(function (page, url) {
    var docs = page.docs.sort(function (a, b) { return b.score - a.score })
    var parent = null
    docs = docs.filter(function (d) {
      if (d.location !== url) return true
      if (parent === null) parent = d
      return false
    }).slice(0, MAX_HITS)
    if (parent === null) parent = { location: url, title: escapeHTML(page.title), text: "", score: 0 }
    var all = parent.score > 0 ? [parent].concat(docs) : docs.concat([parent])
    all.sort(function (a, b) { return b.score - a.score })
    for (var d = 0; d < all.length; d++) all[d].terms = page.terms
    out.push(all)
  })
  return out
}

function post(id, items, last) {
  if (id === latest) postMessage({ type: RESULT, data: { items: items, last: last } })
}

function search(id, query) {
  // The query's word shards are fetched while Pagefind loads (one round trip less).
  var loading = load(), segmented = segmentQuery(query)
  segmented.then(prefetchChunks)
  return Promise.all([loading, segmented]).then(function (loaded) {
    return id === latest ? loaded[0].search(loaded[1]) : null
  }).then(function (found) {
    performance.mark("dz searched")
    if (found === null || id !== latest) return
    var results = found.results.slice(0, MAX_PARTS)
    var scores = results.map(function (r) { return r.score })
    var first = results.slice(0, FIRST_PARTS)
    return Promise.all(first.map(function (r) { return r.data() })).then(function (datas) {
      performance.mark("dz first part")
      var rest = results.slice(FIRST_PARTS)
      post(id, items(datas, scores), !rest.length)
      performance.mark("dz first results posted")
      if (!rest.length || id !== latest) return
      // The first results are painted before the rest is fetched (on a slow link the rest
      // would compete with them).
      return new Promise(function (done) { setTimeout(done, REST_DELAY) }).then(function () {
        if (id !== latest) return []
        return Promise.all(rest.map(function (r) { return r.data() }))
      }).then(function (more) {
        if (!more.length) return
        post(id, items(datas.concat(more), scores), true)
      })
    })
  }).catch(function (err) {
    console.warn("duizhao search:", err)
    post(id, [], true)
  })
}

addEventListener("message", function (ev) {
  var message = ev.data || {}
  if (message.type === SETUP) {
    postMessage({ type: READY })
  } else if (message.type === QUERY) {
    performance.mark("dz query")
    var id = ++latest
    var query = String(message.data || "").slice(0, MAX_QUERY).trim()
    if (!query) post(id, [], true)
    else search(id, query)
  }
})
