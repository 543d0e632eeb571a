"""Where Pagefind's own time goes in a first query, without a browser: node runs a built site's
``pagefind.js`` on its files (inflated as the search worker gives them) and times its start
(the metadata and the WebAssembly), the query's index chunks (``preload``: fetched, read into
the WebAssembly), then the search itself, three times (the second and third with warm code).

    python -m bench.search_wasm SITE WORD [WORD ...]

Pagefind's search costs the square of the number of documents that hold the word (for each
such document it scans every (word, document) entry: pagefind_core_search's ``search_term``),
so the parts each page is cut into (``search/pagefind.py``'s ``PART_BYTES``) set it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

SCRIPT = r"""
import fs from "node:fs"; import zlib from "node:zlib"; import path from "node:path";
const [SITE, ...WORDS] = process.argv.slice(2);
const BASE = "http://bench.invalid/search/pagefind/";
globalThis.fetch = async (url) => {
  const rel = String(url).slice(BASE.length).replace(/[?#].*$/, "");
  let body = fs.readFileSync(path.join(SITE, "search/pagefind", rel));
  if (body[0] === 0x1f && body[1] === 0x8b) body = zlib.gunzipSync(body);
  return new Response(body, { status: 200 });
};
const ms = (t) => (performance.now() - t).toFixed(0);
for (const word of WORDS) {
  let t = performance.now();
  const pf = await import(path.join(SITE, "search/pagefind/pagefind.js") + "?" + word);
  await pf.options({ basePath: BASE, excerptLength: 32 });
  await pf.init();
  const start = ms(t);
  t = performance.now();
  await pf.preload(word);
  const chunk = ms(t);
  const runs = [];
  let found = null;
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    found = await pf.search(word);
    runs.push(ms(t));
  }
  const positions = found.results.reduce((n, r) => n + r.words.length, 0);
  console.log(`${word}: start ${start} ms, chunk ${chunk} ms, search ${runs.join(" / ")} ms; ` +
    `${found.results.length} documents, ${positions} positions`);
}
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.search_wasm", description=__doc__.split("\n")[0]
    )
    parser.add_argument("site", type=Path, help="a built site with search: pagefind")
    parser.add_argument("words", nargs="+")
    args = parser.parse_args(argv)
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is needed (Node.js 18 or later)")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "search_wasm.mjs"
        script.write_text(SCRIPT, encoding="utf-8")
        subprocess.run([node, str(script), str(args.site.resolve()), *args.words], check=True)


if __name__ == "__main__":
    main()
