// Runs Lighthouse on pages for bench/lighthouse.py: reads what to run as JSON on stdin, writes one
// JSON line per page and form factor on stdout. Each form factor gets a fresh Chromium (CHROME_PATH:
// Debian's), given the visitor's cookies first, so that pages that need a session (a game, a
// profile) load as that visitor's; Lighthouse empties the browser's cache before every page.
//
// stdin: {"cookies": [{"name", "value", "url"}], "runs": [{"name", "url", "formFactor"}],
//         "saveDir": a directory for the whole reports (<name>-<form factor>.json), or null}
// stdout, per run: {"name", "formFactor", "scores": {category: 0-100}, "failing": [audit ids]}

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import puppeteer from "puppeteer-core";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const CHROME_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--ignore-certificate-errors", // the topology's certificate is self-signed
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The audits of a category that did not pass, for a reader to follow up. */
function failingAudits(lhr) {
  const failing = [];
  for (const id of CATEGORIES) {
    for (const ref of lhr.categories[id].auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
        // Where, for an audit of the page's markup: the first element it names.
        const snippet = audit.details?.items?.[0]?.node?.snippet;
        const where = id === "performance" || !snippet ? "" : ` at ${snippet.slice(0, 160)}`;
        failing.push(`${id}:${ref.id}=${Math.round(audit.score * 100)}${where}`);
      }
    }
  }
  return failing;
}

// Lighthouse now and then fails to record the trace of a page load (NO_NAVSTART, and the like: a
// runtime error with no scores); such a run is tried again, at most this many times in all.
const MAX_TRIES = 3;

/** Lighthouse's result for `url`, and how many runs it took to get one without a trace error. */
async function measured(url, formFactor, page) {
  const flags = { logLevel: "error", output: "json", onlyCategories: CATEGORIES };
  const config = formFactor === "desktop" ? desktopConfig : undefined;
  for (let tries = 1; ; tries++) {
    const result = await lighthouse(url, flags, config, page);
    if (!result.lhr.runtimeError || tries === MAX_TRIES) return { result, tries };
  }
}

async function runFormFactor(formFactor, runs, cookies, saveDir) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH,
    args: CHROME_ARGS,
    acceptInsecureCerts: true,
  });
  try {
    const page = await browser.newPage();
    if (cookies.length) await browser.setCookie(...cookies);
    for (const run of runs) {
      const { result, tries } = await measured(run.url, formFactor, page);
      const lhr = result.lhr;
      if (saveDir) writeFileSync(join(saveDir, `${run.name}-${formFactor}.json`), result.report);
      const scores = Object.fromEntries(
        CATEGORIES.map((id) => [id, Math.round((lhr.categories[id].score ?? 0) * 100)]),
      );
      const line = { name: run.name, formFactor, scores, failing: failingAudits(lhr) };
      if (lhr.runtimeError) line.error = lhr.runtimeError.message;
      if (tries > 1) line.tries = tries;
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  } finally {
    await browser.close();
  }
}

const input = JSON.parse(readFileSync(0, "utf8"));
for (const formFactor of ["mobile", "desktop"]) {
  const runs = input.runs.filter((run) => run.formFactor === formFactor);
  if (runs.length) await runFormFactor(formFactor, runs, input.cookies, input.saveDir);
}
