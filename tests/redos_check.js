// Checks a batch of regular expressions with recheck (issue 19): reads a JSON array of
// {source, stripped, flags} on stdin (stripped: the pattern without its assertions), writes a JSON array of {status, complexity, attack, error} on
// stdout, in the same order. The native backend (recheck-linux-x64, from npm) when present,
// else recheck's own JavaScript build. Nothing is cached between runs.
"use strict";
const { check } = require("recheck");

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const patterns = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const results = [];
  for (const { source, stripped, flags } of patterns) {
    // The automaton checker first: it decides ambiguity exactly (no false positive from a
    // bounded repeat); where it cannot (lookbehind, back-references, an NFA too large), the
    // fuzzer, with a fixed seed.
    const t0 = Date.now();
    // The time-out is generous: quality.mask's _AUTHOR_YEAR_RE takes the automaton 2.9 s on
    // this 2-core machine at load 8 (linear), and past 5 s at load 12 it came back "unknown".
    const automaton = { checker: "automaton", timeout: 20000, maxNFASize: 200000 };
    let r = await check(stripped, flags, automaton);
    if (r.status === "unknown") {
      r = await check(source, flags, { checker: "fuzz", timeout: 3000, randomSeed: 19 });
    }
    const ms = Date.now() - t0;
    results.push({
      ms,
      status: r.status,
      checker: r.checker || null,
      complexity: r.complexity ? r.complexity.summary || r.complexity.type : null,
      attack: r.attack ? r.attack.pattern || r.attack.string : null,
      hotspot: (r.hotspot || []).map((h) => source.slice(h.start, h.end)),
      error: r.error ? r.error.kind + (r.error.message ? ": " + r.error.message : "") : null,
    });
  }
  process.stdout.write(JSON.stringify(results));
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + "\n");
  process.exit(2);
});
