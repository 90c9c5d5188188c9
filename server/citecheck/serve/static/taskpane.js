"use strict";
(() => {
  // src/findings.ts
  var TREATMENTS = /* @__PURE__ */ new Set(["overruled", "negatively-treated", "acknowledged", "none-found", "not-asked"]);
  var WireError = class extends Error {
  };
  function expect(obj, where, fields) {
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) throw new WireError(`${where}: not an object`);
    const o = obj;
    for (const [name, shape] of Object.entries(fields)) {
      const v = o[name];
      const optional = shape.endsWith("?");
      const base = optional ? shape.slice(0, -1) : shape;
      if (v === null && optional) continue;
      const ok = base === "array" ? Array.isArray(v) : base === "object" ? typeof v === "object" && v !== null : typeof v === base;
      if (!ok) throw new WireError(`${where}.${name}: expected ${shape}, got ${v === null ? "null" : typeof v}`);
    }
    return o;
  }
  var SEVERITIES = /* @__PURE__ */ new Set(["error", "warning", "info"]);
  var CONFIDENCES = /* @__PURE__ */ new Set(["high", "medium", "low"]);
  var WEIGHTS = /* @__PURE__ */ new Set(["binding", "persuasive", "unknown"]);
  var STATUSES = /* @__PURE__ */ new Set(["problem", "verified", "cannot-verify", "not-checked"]);
  var PLACE = { paragraph: "number", start: "number", end: "number", part: "string", text: "string" };
  function parseCheckAnswer(raw) {
    const a = expect(raw, "answer", { api: "number", document: "string", elapsed_ms: "number", changed_chars: "number", ignored: "number", report: "object" });
    if (a.api !== 1) throw new WireError(`answer.api: this pane speaks version 1, the server ${String(a.api)}`);
    const r = expect(a.report, "report", { schema: "string", version: "number", offset_unit: "string", tool: "object", offline: "boolean", sources: "string", summary: "object", files: "array", errors: "array", notes: "array" });
    if (r.schema !== "citecheck-report" || r.version !== 1) throw new WireError(`report: unknown schema ${String(r.schema)} v${String(r.version)}`);
    const s = expect(r.summary, "report.summary", { files: "number", citations: "number", findings: "object", status: "object", input_errors: "number" });
    expect(s.findings, "report.summary.findings", { error: "number", warning: "number", info: "number" });
    expect(s.status, "report.summary.status", { problem: "number", verified: "number", "cannot-verify": "number", "not-checked": "number" });
    r.files.forEach((f, fi) => {
      const file = expect(f, `files[${fi}]`, { path: "string", kind: "string", characters: "number", forum: "object?", citations: "array", findings: "array", authorities: "array" });
      if (file.forum !== null) expect(file.forum, `files[${fi}].forum`, { court: "string", court_name: "string", origin: "string" });
      file.citations.forEach((c, ci) => {
        const w = `files[${fi}].citations[${ci}]`;
        const cit = expect(c, w, {
          index: "number",
          text: "string",
          form: "string",
          span: "object",
          full_span: "object",
          page: "string?",
          case_name: "string?",
          cite: "string?",
          database: "string?",
          pincite: "string?",
          court: "string?",
          year: "number?",
          antecedent: "number?",
          group: "number?",
          status: "string",
          reason: "string?",
          resolved_case: "object?",
          page_used: "string?",
          passage: "string?",
          holding: "object?",
          weight: "object?",
          word: "object"
        });
        if (cit.statute !== void 0 && cit.statute !== null) {
          expect(cit.statute, `${w}.statute`, { form: "string", code: "string?", section: "string", regulation: "boolean", resolved: "string?" });
        }
        if (cit.treatment !== void 0 && cit.treatment !== null) {
          const tr = expect(cit.treatment, `${w}.treatment`, { status: "string", sources: "array", treatments: "array" });
          if (!TREATMENTS.has(tr.status)) throw new WireError(`${w}.treatment.status: unknown status ${String(tr.status)}`);
        }
        if (cit.weight !== null) {
          const wt = expect(cit.weight, `${w}.weight`, { weight: "string", reason: "string" });
          if (!WEIGHTS.has(wt.weight)) throw new WireError(`${w}.weight.weight: unknown weight ${String(wt.weight)}`);
        }
        if (!STATUSES.has(cit.status)) throw new WireError(`${w}.status: unknown status ${String(cit.status)}`);
        expect(cit.word, `${w}.word`, PLACE);
      });
      file.findings.forEach((x, xi) => {
        const w = `files[${fi}].findings[${xi}]`;
        const f2 = expect(x, w, { kind: "string", title: "string", severity: "string", span: "object", page: "string?", message: "string", citation_index: "number?", evidence: "object", fixes: "array", word: "object", ignore_key: "object" });
        if (!SEVERITIES.has(f2.severity)) throw new WireError(`${w}.severity: unknown severity ${String(f2.severity)}`);
        expect(f2.span, `${w}.span`, { start: "number", end: "number", line: "number", column: "number", end_line: "number", end_column: "number" });
        expect(f2.word, `${w}.word`, PLACE);
        expect(f2.ignore_key, `${w}.ignore_key`, { kind: "string", citation: "string", quoteHash: "string" });
        for (const [k, v] of Object.entries(f2.evidence)) {
          if (typeof v !== "string") throw new WireError(`${w}.evidence.${k}: expected string`);
        }
        f2.fixes.forEach((fx, i) => {
          const fix = expect(fx, `${w}.fixes[${i}]`, { title: "string", edits: "array", preferred: "boolean" });
          if (fix.why !== void 0 && typeof fix.why !== "string") throw new WireError(`${w}.fixes[${i}].why: expected string`);
          if (fix.confidence !== void 0 && !CONFIDENCES.has(fix.confidence)) {
            throw new WireError(`${w}.fixes[${i}].confidence: unknown confidence ${typeof fix.confidence === "string" ? fix.confidence : JSON.stringify(fix.confidence)}`);
          }
          fix.edits.forEach((e, j) => {
            const edit = expect(e, `${w}.fixes[${i}].edits[${j}]`, { span: "object", new_text: "string", word: "object" });
            expect(edit.word, `${w}.fixes[${i}].edits[${j}].word`, PLACE);
          });
        });
      });
    });
    return raw;
  }

  // src/api.ts
  var TOKEN_HEADER = "X-Citecheck-Token";
  var NOT_RUNNING = "The citecheck backend is not running. Start it with `citecheck serve`, then press Check again.";
  var BackendError = class extends Error {
    constructor(message2, status = null) {
      super(message2);
      this.status = status;
    }
  };
  var Api = class {
    constructor(token, fetchFn, base = "") {
      this.token = token;
      this.fetchFn = fetchFn;
      this.base = base;
    }
    async call(path, body) {
      const headers = { [TOKEN_HEADER]: this.token };
      if (body !== void 0) headers["Content-Type"] = "application/json";
      let res;
      try {
        res = await this.fetchFn(this.base + path, {
          method: body === void 0 ? "GET" : "POST",
          headers,
          body: body === void 0 ? void 0 : JSON.stringify(body)
        });
      } catch {
        throw new BackendError(NOT_RUNNING);
      }
      if (res.ok) return res;
      let detail = "";
      try {
        const j = await res.json();
        detail = typeof j.error === "string" ? j.error : "";
      } catch {
      }
      if (res.status === 401) throw new BackendError("The backend did not accept this pane\u2019s token (it was restarted with a new install?). Reload the pane.", 401);
      if (res.status === 403 || res.status === 421) throw new BackendError(`The backend refused the request: ${detail || "wrong origin"}.`, res.status);
      if (res.status === 413) throw new BackendError(`The document is too large for the backend: ${detail}`, 413);
      throw new BackendError(detail || `The backend answered HTTP ${res.status}.`, res.status);
    }
    async health() {
      return await (await this.call("/api/v1/health")).json();
    }
    async check(document2, paragraphs) {
      const raw = await (await this.call("/api/v1/check", { document: document2, paragraphs })).json();
      try {
        return parseCheckAnswer(raw);
      } catch (e) {
        throw new BackendError(`The backend's answer is not one this pane understands (${e.message}); update citecheck or the pane.`);
      }
    }
    async ignore(key, scope) {
      await this.call("/api/v1/ignore", { key, scope });
    }
    /** The HTML report of the last check, and where the server also saved it (under its --root). */
    async reportHtml(document2) {
      const res = await this.call("/api/v1/report", { document: document2 });
      return { html: await res.text(), savedTo: res.headers?.get("X-Citecheck-Saved") ?? null };
    }
  };

  // src/view.ts
  var STATUS_ORDER = ["problem", "cannot-verify", "not-checked", "verified"];
  var STATUS_LABEL = {
    problem: "Problems",
    "cannot-verify": "Could not be verified \u2014 not an accusation",
    "not-checked": "Not checked",
    verified: "Verified"
  };
  var STATUS_HELP = {
    problem: "citecheck found something to look at before filing.",
    "cannot-verify": "No source available to citecheck covers these citations. They may well be right; check them by hand or add a source.",
    "not-checked": "Nothing to look up (e.g. a short form without a full citation), or a statute or regulation citecheck has no source for (each one names its code). Not an accusation.",
    verified: "Found in a source, and nothing looked wrong."
  };
  function citationLabel(c) {
    if (c.statute) {
      const s = c.statute;
      const code = s.code_name ?? (s.form === "full" ? null : "code not named");
      return code && !c.text.includes(code) ? `${c.text} (${code}${s.jurisdiction && s.jurisdiction !== "United States" ? `, ${s.jurisdiction}` : ""})` : c.text;
    }
    return c.case_name ? `${c.case_name}, ${c.cite ?? c.text}` : c.text;
  }
  function findingTitle(f) {
    return f.title || f.kind;
  }
  function plural(n, one, many) {
    return `${n} ${n === 1 ? one : many}`;
  }
  function summaryLine(answer) {
    const s = answer.report.summary;
    const parts = [
      plural(s.findings.error, "error", "errors"),
      plural(s.findings.warning, "warning", "warnings"),
      `${s.status["cannot-verify"]} could not be verified`,
      plural(s.citations, "citation", "citations") + (s.statutes ? ` (${plural(s.statutes, "statute", "statutes")})` : "")
    ];
    if (answer.ignored) parts.push(`${answer.ignored} ignored`);
    return parts.join(" \xB7 ");
  }
  function forumLine(answer) {
    const forum = answer.report.files[0]?.forum;
    if (!forum) return "";
    const origin = forum.origin ? ` (from ${forum.origin === "config" ? "your settings" : `the ${forum.origin}`})` : "";
    return `Filed in: ${forum.court_name}${origin}. Binding and persuasive authority is judged for this court.`;
  }
  function groupCitations(answer, shown) {
    const file = answer.report.files[0];
    if (!file) return [];
    const byCitation = /* @__PURE__ */ new Map();
    for (const f of file.findings) {
      if (f.citation_index === null) continue;
      const list = byCitation.get(f.citation_index) ?? [];
      list.push(f);
      byCitation.set(f.citation_index, list);
    }
    return STATUS_ORDER.filter((s) => shown.has(s)).map((status) => ({
      status,
      label: STATUS_LABEL[status],
      help: STATUS_HELP[status],
      items: file.citations.filter((c) => c.status === status).map((c) => ({ citation: c, findings: byCitation.get(c.index) ?? [] }))
    })).filter((g) => g.items.length > 0);
  }
  function documentFindings(answer) {
    return answer.report.files[0]?.findings.filter((f) => f.citation_index === null) ?? [];
  }
  function evidenceItems(f) {
    const e = f.evidence;
    const statute = e.source === "statute index";
    const items = [
      ["Source", e.source],
      ["Case", e.case_name],
      ["Citation", e.citation],
      ["Court", e.court],
      [statute ? "Amended" : "Decided", e.date],
      ["Page", e.page],
      ["Draft says", e.draft],
      [statute ? "Section says" : "Opinion says", e.passage],
      ["Difference", e.diff],
      ["Note", e.note],
      ["Record", e.record_id],
      ["Link", e.url]
    ];
    return items.filter((x) => Boolean(x[1]));
  }
  function commentText(f) {
    const lines = [`citecheck \u2014 ${findingTitle(f)} (${f.severity})`, f.message];
    for (const [label, value] of evidenceItems(f)) {
      if (label === "Record") continue;
      lines.push(`${label}: ${value.length > 600 ? `${value.slice(0, 600)}\u2026` : value}`);
    }
    return lines.join("\n");
  }
  var STATUS_SHORT = {
    problem: "problem",
    "cannot-verify": "could not verify",
    "not-checked": "not checked",
    verified: "verified"
  };
  function fixNote(fix) {
    const parts = [];
    if (fix.confidence) parts.push(`${fix.confidence} confidence`);
    if (fix.why) parts.push(fix.why);
    let note = parts.join(": ");
    if (!fix.preferred) note += `${note ? " " : ""}(one of several candidates: check it before applying)`;
    return note;
  }
  function treatmentLine(citation) {
    const t = citation.treatment;
    if (!t || t.status === "not-asked") return "";
    if (t.status === "none-found") return `Subsequent treatment: none found in the treatment data we have (${t.sources.join("; ")}) \u2014 not proof it is still good law.`;
    if (t.status === "acknowledged") return `Subsequent treatment: the draft gives it (\u201C${t.acknowledged ?? ""}\u201D).`;
    const first = t.treatments[0];
    return first ? `Subsequent treatment: ${first.kind}${first.whole ? "" : " in part"}${first.by ? ` by ${first.by}` : ""}.` : "";
  }

  // src/positions.ts
  var SEARCH_LIMIT = 255;
  function escapeSearch(text) {
    return text.replace(/\^/g, "^^");
  }
  function occurrenceIndex(haystack, needle, start2) {
    if (!needle) return 0;
    let n = 0;
    let at = haystack.indexOf(needle);
    while (at !== -1 && at < start2) {
      n += 1;
      at = haystack.indexOf(needle, at + needle.length);
    }
    return n;
  }
  function fittingLength(text, limit, fromEnd) {
    let len = 0;
    let escaped = 0;
    const chars = Array.from(text);
    const seq = fromEnd ? chars.reverse() : chars;
    for (const ch of seq) {
      const cost = ch === "^" ? 2 : ch.length;
      if (escaped + cost > limit) break;
      escaped += cost;
      len += ch.length;
    }
    return len;
  }
  function searchPlan(paragraph, start2, end, limit = SEARCH_LIMIT) {
    if (start2 < 0 || end > paragraph.length || end <= start2) return null;
    const target = paragraph.slice(start2, end);
    if (escapeSearch(target).length <= limit) {
      return { kind: "single", step: { search: escapeSearch(target), nth: occurrenceIndex(paragraph, target, start2) } };
    }
    const headLen = fittingLength(target, limit, false);
    const tailLen = fittingLength(target, limit, true);
    const head = target.slice(0, headLen);
    const tailStart = end - tailLen;
    const tail = paragraph.slice(tailStart, end);
    return {
      kind: "span",
      head: { search: escapeSearch(head), nth: occurrenceIndex(paragraph, head, start2) },
      tail: { search: escapeSearch(tail), nth: occurrenceIndex(paragraph, tail, tailStart) }
    };
  }

  // src/word.ts
  var PlaceChanged = class extends Error {
  };
  async function readDocument(host, support) {
    return host.run(async (ctx) => {
      const body = ctx.document.body;
      const paras = body.paragraphs.load("items/text,items/tableNestingLevel");
      const notes = [];
      if (support.notes && body.footnotes) notes.push(["footnote", body.footnotes.load("items")]);
      if (support.notes && body.endnotes) notes.push(["endnote", body.endnotes.load("items")]);
      await ctx.sync();
      const noteParas = [];
      for (const [kind, coll] of notes) {
        coll.items.forEach((item, i) => noteParas.push([kind, i, item.body.paragraphs.load("items/text")]));
      }
      if (noteParas.length) await ctx.sync();
      const snap = { paragraphs: [], locators: [] };
      paras.items.forEach((p, index) => {
        snap.paragraphs.push({ text: p.text, part: p.tableNestingLevel > 0 ? "table" : "body" });
        snap.locators.push({ where: "body", index });
      });
      for (const [kind, note, coll] of noteParas) {
        coll.items.forEach((p, index) => {
          snap.paragraphs.push({ text: p.text, part: kind });
          snap.locators.push({ where: kind, note, index });
        });
      }
      return snap;
    });
  }
  async function paragraphAt(ctx, loc) {
    const body = ctx.document.body;
    if (loc.where === "body") {
      const ps2 = body.paragraphs.load("items/text");
      await ctx.sync();
      return ps2.items[loc.index];
    }
    const notes = (loc.where === "footnote" ? body.footnotes : body.endnotes)?.load("items");
    if (!notes) return void 0;
    await ctx.sync();
    const note = notes.items[loc.note];
    if (!note) return void 0;
    const ps = note.body.paragraphs.load("items/text");
    await ctx.sync();
    return ps.items[loc.index];
  }
  async function runSteps(ctx, para, steps) {
    const found = steps.map((s) => para.search(s.search, { matchCase: true, matchWildcards: false }).load("items"));
    await ctx.sync();
    return found.map((coll, i) => coll.items[steps[i].nth]);
  }
  async function rangeOf(ctx, loc, place, expected) {
    const para = await paragraphAt(ctx, loc);
    if (!para || para.text !== expected) throw new PlaceChanged("The paragraph changed since the last check; check again.");
    const plan = searchPlan(expected, place.start, place.end);
    if (!plan) throw new PlaceChanged("This citation is no longer where it was; check again.");
    if (plan.kind === "single") {
      const [r] = await runSteps(ctx, para, [plan.step]);
      if (r) return r;
    } else {
      const [head, tail] = await runSteps(ctx, para, [plan.head, plan.tail]);
      if (head && tail) return head.expandTo(tail);
    }
    throw new PlaceChanged(`Word could not find \u201C${place.text.slice(0, 60)}\u201D in its paragraph; check again.`);
  }
  async function selectPlace(host, loc, place, expected) {
    await host.run(async (ctx) => {
      (await rangeOf(ctx, loc, place, expected)).select("Select");
      await ctx.sync();
    });
  }
  async function commentOn(host, loc, place, expected, text) {
    await host.run(async (ctx) => {
      (await rangeOf(ctx, loc, place, expected)).insertComment(text);
      await ctx.sync();
    });
  }
  var ANCHOR = 24;
  function insertionAnchor(paragraph, place) {
    const low = (i) => i > 0 && i < paragraph.length && (paragraph.charCodeAt(i) & 64512) === 56320;
    const at = place.start;
    if (at < 0 || at > paragraph.length || paragraph.length === 0) return null;
    let start2 = at > 0 ? Math.max(0, at - ANCHOR) : 0;
    let end = at > 0 ? at : Math.min(paragraph.length, ANCHOR);
    if (low(start2)) start2 -= 1;
    if (low(end)) end += 1;
    return { place: { ...place, start: start2, end, text: paragraph.slice(start2, end) }, at: at > 0 ? "End" : "Start" };
  }
  async function replacePlaces(host, edits) {
    const ordered = [...edits].sort((a, b) => a.place.paragraph - b.place.paragraph || b.place.start - a.place.start);
    const current = /* @__PURE__ */ new Map();
    await host.run(async (ctx) => {
      for (const e of ordered) {
        const expected = current.get(e.place.paragraph) ?? e.expected;
        if (e.place.start === e.place.end) {
          const anchor = insertionAnchor(expected, e.place);
          if (!anchor) throw new PlaceChanged("This citation is no longer where it was; check again.");
          (await rangeOf(ctx, e.loc, anchor.place, expected)).insertText(e.newText, anchor.at);
        } else {
          (await rangeOf(ctx, e.loc, e.place, expected)).insertText(e.newText, "Replace");
        }
        await ctx.sync();
        current.set(e.place.paragraph, expected.slice(0, e.place.start) + e.newText + expected.slice(e.place.end));
      }
    });
  }
  async function watchChanges(host, support, onChange) {
    if (!support.events) return false;
    return host.run(async (ctx) => {
      const d = ctx.document;
      const handler = () => {
        onChange();
        return Promise.resolve();
      };
      let any = false;
      for (const ev of [d.onParagraphChanged, d.onParagraphAdded, d.onParagraphDeleted]) {
        if (ev) {
          ev.add(handler);
          any = true;
        }
      }
      await ctx.sync();
      return any;
    });
  }

  // src/controller.ts
  function message(e) {
    if (e instanceof BackendError || e instanceof PlaceChanged) return e.message;
    return `Something went wrong: ${e instanceof Error ? e.message : String(e)}`;
  }
  var Controller = class {
    constructor(host, support, api, view, documentId2, options) {
      this.host = host;
      this.support = support;
      this.api = api;
      this.view = view;
      this.documentId = documentId2;
      this.options = options;
      this.state = {
        busy: false,
        progress: "",
        error: null,
        notice: null,
        answer: null,
        shown: /* @__PURE__ */ new Set(["problem", "cannot-verify", "not-checked", "verified"]),
        watching: false
      };
      this.snapshot = null;
      this.timer = null;
      this.running = null;
      this.again = false;
    }
    update(patch) {
      Object.assign(this.state, patch);
      this.view.render(this.state);
    }
    /** Check now; a request during a check runs once more right after it. */
    check() {
      if (this.running) {
        this.again = true;
        return this.running;
      }
      this.running = this.runCheck().finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.check();
        }
      });
      return this.running;
    }
    async runCheck() {
      this.update({ busy: true, error: null, notice: null, progress: "Reading the document\u2026" });
      try {
        const snap = await readDocument(this.host, this.support);
        this.update({ progress: `Checking ${snap.paragraphs.length} paragraphs\u2026` });
        const answer = await this.api.check(this.documentId, snap.paragraphs);
        this.snapshot = snap;
        const secs = (answer.elapsed_ms / 1e3).toFixed(1);
        this.update({ busy: false, answer, progress: `Checked ${answer.report.summary.citations} citations in ${secs} s.` });
      } catch (e) {
        this.update({ busy: false, progress: "", error: message(e) });
      }
    }
    /** Re-check `debounceMs` after the last change event. */
    scheduleCheck() {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.check();
      }, this.options.debounceMs);
    }
    async watch() {
      try {
        const on = await watchChanges(this.host, this.support, () => this.scheduleCheck());
        this.update({ watching: on });
      } catch {
        this.update({ watching: false });
      }
    }
    where(place) {
      const snap = this.snapshot;
      const loc = snap?.locators[place.paragraph];
      const para = snap?.paragraphs[place.paragraph];
      if (!loc || !para) throw new PlaceChanged("The document changed since the last check; check again.");
      return { loc, expected: para.text };
    }
    async act(what, done) {
      this.update({ error: null, notice: null });
      try {
        await what();
        if (done) this.update({ notice: done });
      } catch (e) {
        this.update({ error: message(e) });
      }
    }
    select(place) {
      return this.act(async () => {
        const { loc, expected } = this.where(place);
        await selectPlace(this.host, loc, place, expected);
      });
    }
    comment(f) {
      return this.act(async () => {
        if (!this.support.comments) throw new PlaceChanged("This version of Word cannot add comments from an add-in (WordApi 1.4).");
        const { loc, expected } = this.where(f.word);
        await commentOn(this.host, loc, f.word, expected, commentText(f));
      }, "Comment added.");
    }
    applyFix(f, index = 0) {
      return this.act(async () => {
        const fix = f.fixes[index];
        if (!fix) throw new PlaceChanged("This finding has no fix to apply.");
        await replacePlaces(this.host, fix.edits.map((e) => ({ ...this.where(e.word), place: e.word, newText: e.new_text })));
        await this.check();
        this.update({ notice: `Applied: ${fix.title}` });
      });
    }
    ignore(f, scope) {
      return this.act(async () => {
        await this.api.ignore(f.ignore_key, scope);
        await this.check();
        this.update({ notice: scope === "finding" ? "Ignored this finding (shared with your editors)." : "Ignored this citation (shared with your editors)." });
      });
    }
    exportReport() {
      return this.act(async () => {
        if (!this.state.answer) await this.check();
        const { html, savedTo } = await this.api.reportHtml(this.documentId);
        this.options.save(html, "citecheck-report.html");
        this.update({ notice: savedTo ? `Report exported (also saved as ${savedTo}).` : "Report exported." });
      });
    }
    setShown(status, on) {
      const shown = new Set(this.state.shown);
      if (on) shown.add(status);
      else shown.delete(status);
      this.update({ shown });
    }
  };

  // src/panel.ts
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== void 0) node.textContent = text;
    return node;
  }
  function button(label, cls, onClick, title) {
    const b = el("button", cls, label);
    b.type = "button";
    if (title) b.title = title;
    b.addEventListener("click", onClick);
    return b;
  }
  var Panel = class {
    constructor(root) {
      this.controller = null;
      this.drawn = { answer: null, shown: null };
      root.textContent = "";
      const head = el("header", "bar");
      this.checkButton = button("Check citations", "primary", () => void this.controller?.check());
      this.exportButton = button("Export report", "secondary", () => void this.controller?.exportReport(), "Save the HTML report of this check");
      head.append(this.checkButton, this.exportButton);
      this.progress = el("div", "progress");
      this.progress.setAttribute("role", "status");
      this.bar = el("progress");
      this.bar.hidden = true;
      this.error = el("div", "error");
      this.error.setAttribute("role", "alert");
      this.notice = el("div", "notice");
      this.summary = el("p", "summary");
      this.forum = el("p", "forum");
      this.filters = el("div", "filters");
      this.groups = el("div", "groups");
      this.footer = el("footer", "watching");
      root.append(head, this.bar, this.progress, this.error, this.notice, this.summary, this.forum, this.filters, this.groups, this.footer);
    }
    bind(controller) {
      this.controller = controller;
    }
    render(state) {
      this.checkButton.disabled = state.busy;
      this.checkButton.textContent = state.busy ? "Checking\u2026" : "Check citations";
      this.bar.hidden = !state.busy;
      this.progress.textContent = state.progress;
      this.error.textContent = state.error ?? "";
      this.error.hidden = !state.error;
      this.notice.textContent = state.notice ?? "";
      this.notice.hidden = !state.notice;
      this.footer.textContent = state.watching ? "Re-checks automatically a moment after you edit." : "Press \u201CCheck citations\u201D again after editing.";
      const answer = state.answer;
      this.exportButton.disabled = !answer || state.busy;
      if (!answer) {
        this.summary.textContent = state.busy ? "" : "Press \u201CCheck citations\u201D to check the case citations in this document.";
        return;
      }
      this.summary.textContent = summaryLine(answer);
      this.forum.textContent = forumLine(answer);
      if (this.drawn.answer === answer && this.drawn.shown === state.shown) return;
      this.drawn = { answer, shown: state.shown };
      this.renderFilters(state);
      this.groups.textContent = "";
      for (const f of documentFindings(answer)) this.groups.append(this.finding(f));
      const groups = groupCitations(answer, state.shown);
      if (!groups.length) this.groups.append(el("p", "empty", answer.report.summary.citations ? "No citations match the filters." : "No case citations found in this document."));
      for (const g of groups) {
        const section = el("section", `group status-${g.status}`);
        section.append(el("h2", void 0, `${g.label} (${g.items.length})`), el("p", "help", g.help));
        const list = el("ul", "citations");
        for (const { citation, findings } of g.items) {
          const item = el("li", "citation");
          const link = button(
            citationLabel(citation),
            "cite-link",
            () => void this.controller?.select(citation.word),
            "Select this citation in the document"
          );
          item.append(link, el("span", `badge status-${citation.status}`, STATUS_SHORT[citation.status]));
          if (citation.weight && citation.weight.weight !== "unknown") {
            const weight = el("span", `badge weight-${citation.weight.weight}`, citation.weight.weight);
            weight.title = citation.weight.reason;
            item.append(weight);
          }
          if (citation.status === "cannot-verify" && citation.reason) item.append(el("p", "reason", citation.reason));
          const later = treatmentLine(citation);
          if (later) item.append(el("p", "reason", later));
          if (citation.statute?.resolved && citation.statute.form !== "full") item.append(el("p", "reason", `Stands for ${citation.statute.resolved}.`));
          for (const f of findings) item.append(this.finding(f));
          list.append(item);
        }
        section.append(list);
        this.groups.append(section);
      }
      for (const n of answer.report.notes) this.groups.append(el("p", "note", n));
    }
    renderFilters(state) {
      const counts = state.answer?.report.summary.status;
      this.filters.textContent = "";
      for (const s of STATUS_ORDER) {
        const label = el("label", `filter status-${s}`);
        const box = el("input");
        box.type = "checkbox";
        box.checked = state.shown.has(s);
        box.addEventListener("change", () => this.controller?.setShown(s, box.checked));
        label.append(box, document.createTextNode(` ${STATUS_LABEL[s].split(" \u2014 ")[0]} (${counts?.[s] ?? 0})`));
        this.filters.append(label);
      }
    }
    finding(f) {
      const box = el("div", `finding severity-${f.severity}`);
      box.append(el("h3", void 0, findingTitle(f)), el("p", "message", f.message));
      const items = evidenceItems(f);
      if (items.length) {
        const dl = el("dl", "evidence");
        for (const [label, value] of items) dl.append(el("dt", void 0, label), el("dd", label === "Opinion says" ? "passage" : void 0, value));
        box.append(dl);
      }
      const c = this.controller;
      const actions = el("div", "actions");
      actions.append(button("Show", "show", () => void c?.select(f.word), "Select it in the document"));
      actions.append(button("Add comment", "comment", () => void c?.comment(f), "Insert a Word comment with this finding and its evidence"));
      f.fixes.forEach((fix, i) => {
        const note = fixNote(fix);
        actions.append(button(`Apply fix: ${fix.title}`, fix.preferred ? "fix" : "fix candidate", () => void c?.applyFix(f, i), note || void 0));
        if (note) actions.append(el("p", "fix-why", note));
      });
      actions.append(button("Ignore", "ignore", () => void c?.ignore(f, "finding"), "Hide this finding here and in your editors"));
      actions.append(button("Ignore citation", "ignore-citation", () => void c?.ignore(f, "citation"), "Hide every finding on this citation"));
      box.append(actions);
      return box;
    }
  };

  // src/taskpane.ts
  function documentId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function save(html, filename) {
    const url = URL.createObjectURL(new Blob([html], { type: "text/html" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = filename;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 6e4);
  }
  function supported(version) {
    return Office.context.requirements.isSetSupported("WordApi", version);
  }
  function start() {
    const root = document.getElementById("app");
    if (!root) return;
    const token = document.querySelector('meta[name="citecheck-token"]')?.getAttribute("content") ?? "";
    const support = { expand: supported("1.3"), comments: supported("1.4"), notes: supported("1.5"), events: supported("1.6") };
    const panel = new Panel(root);
    const api = new Api(token, (url, init) => fetch(url, { ...init, credentials: "same-origin", cache: "no-store" }));
    const host = Word;
    const controller = new Controller(host, support, api, panel, documentId(), { debounceMs: 1200, save });
    panel.bind(controller);
    panel.render(controller.state);
    void controller.watch().then(() => controller.check());
  }
  void Office.onReady((info) => {
    if (info.host === Office.HostType.Word) {
      start();
    } else {
      const root = document.getElementById("app");
      if (root) root.textContent = "citecheck\u2019s panel works in Word. Open this add-in from Word\u2019s Home tab (\u201CCheck citations\u201D).";
    }
  });
})();
