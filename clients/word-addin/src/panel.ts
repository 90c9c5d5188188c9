// The DOM of the task pane: renders PaneState and forwards clicks to the Controller. All document
// and server text goes in through textContent (never innerHTML): a citation or an opinion passage is
// data, not markup.

import type { Controller, PaneState } from './controller';
import type { Finding } from './findings';
import { STATUS_LABEL, STATUS_ORDER, STATUS_SHORT, citationLabel, documentFindings, evidenceItems, findingTitle, fixNote, forumLine, groupCitations, summaryLine, treatmentLine } from './view';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label: string, cls: string, onClick: () => void, title?: string): HTMLButtonElement {
  const b = el('button', cls, label);
  b.type = 'button';
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

export class Panel {
  private controller: Controller | null = null;
  private drawn: { answer: unknown; shown: unknown } = { answer: null, shown: null };
  private readonly checkButton: HTMLButtonElement;
  private readonly exportButton: HTMLButtonElement;
  private readonly progress: HTMLElement;
  private readonly bar: HTMLProgressElement;
  private readonly error: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly forum: HTMLElement;
  private readonly filters: HTMLElement;
  private readonly groups: HTMLElement;
  private readonly footer: HTMLElement;

  constructor(root: HTMLElement) {
    root.textContent = '';
    const head = el('header', 'bar');
    this.checkButton = button('Check citations', 'primary', () => void this.controller?.check());
    this.exportButton = button('Export report', 'secondary', () => void this.controller?.exportReport(), 'Save the HTML report of this check');
    head.append(this.checkButton, this.exportButton);
    this.progress = el('div', 'progress');
    this.progress.setAttribute('role', 'status');
    this.bar = el('progress');
    this.bar.hidden = true;
    this.error = el('div', 'error');
    this.error.setAttribute('role', 'alert');
    this.notice = el('div', 'notice');
    this.summary = el('p', 'summary');
    this.forum = el('p', 'forum');
    this.filters = el('div', 'filters');
    this.groups = el('div', 'groups');
    this.footer = el('footer', 'watching');
    root.append(head, this.bar, this.progress, this.error, this.notice, this.summary, this.forum, this.filters, this.groups, this.footer);
  }

  bind(controller: Controller): void {
    this.controller = controller;
  }

  render(state: PaneState): void {
    this.checkButton.disabled = state.busy;
    this.checkButton.textContent = state.busy ? 'Checking…' : 'Check citations';
    this.bar.hidden = !state.busy;
    this.progress.textContent = state.progress;
    this.error.textContent = state.error ?? '';
    this.error.hidden = !state.error;
    this.notice.textContent = state.notice ?? '';
    this.notice.hidden = !state.notice;
    this.footer.textContent = state.watching
      ? 'Re-checks automatically a moment after you edit.'
      : 'Press “Check citations” again after editing.';
    const answer = state.answer;
    this.exportButton.disabled = !answer || state.busy;
    if (!answer) {
      this.summary.textContent = state.busy ? '' : 'Press “Check citations” to check the case citations in this document.';
      return;
    }
    this.summary.textContent = summaryLine(answer);
    this.forum.textContent = forumLine(answer);
    // the list is rebuilt only for a new answer or filter: a notice or progress line must not replace
    // the buttons under the user's pointer (or lose the scroll position)
    if (this.drawn.answer === answer && this.drawn.shown === state.shown) return;
    this.drawn = { answer, shown: state.shown };
    this.renderFilters(state);
    this.groups.textContent = '';
    for (const f of documentFindings(answer)) this.groups.append(this.finding(f));
    const groups = groupCitations(answer, state.shown);
    if (!groups.length) this.groups.append(el('p', 'empty', answer.report.summary.citations ? 'No citations match the filters.' : 'No case citations found in this document.'));
    for (const g of groups) {
      const section = el('section', `group status-${g.status}`);
      section.append(el('h2', undefined, `${g.label} (${g.items.length})`), el('p', 'help', g.help));
      const list = el('ul', 'citations');
      for (const { citation, findings } of g.items) {
        const item = el('li', 'citation');
        const link = button(citationLabel(citation), 'cite-link',
          () => void this.controller?.select(citation.word), 'Select this citation in the document');
        item.append(link, el('span', `badge status-${citation.status}`, STATUS_SHORT[citation.status]));
        if (citation.weight && citation.weight.weight !== 'unknown') {
          const weight = el('span', `badge weight-${citation.weight.weight}`, citation.weight.weight);
          weight.title = citation.weight.reason;
          item.append(weight);
        }
        if (citation.status === 'cannot-verify' && citation.reason) item.append(el('p', 'reason', citation.reason));
        const later = treatmentLine(citation);
        if (later) item.append(el('p', 'reason', later));
        if (citation.statute?.resolved && citation.statute.form !== 'full') item.append(el('p', 'reason', `Stands for ${citation.statute.resolved}.`));
        for (const f of findings) item.append(this.finding(f));
        list.append(item);
      }
      section.append(list);
      this.groups.append(section);
    }
    for (const n of answer.report.notes) this.groups.append(el('p', 'note', n));
  }

  private renderFilters(state: PaneState): void {
    const counts = state.answer?.report.summary.status;
    this.filters.textContent = '';
    for (const s of STATUS_ORDER) {
      const label = el('label', `filter status-${s}`);
      const box = el('input');
      box.type = 'checkbox';
      box.checked = state.shown.has(s);
      box.addEventListener('change', () => this.controller?.setShown(s, box.checked));
      label.append(box, document.createTextNode(` ${STATUS_LABEL[s].split(' — ')[0]} (${counts?.[s] ?? 0})`));
      this.filters.append(label);
    }
  }

  private finding(f: Finding): HTMLElement {
    const box = el('div', `finding severity-${f.severity}`);
    box.append(el('h3', undefined, findingTitle(f)), el('p', 'message', f.message));
    const items = evidenceItems(f);
    if (items.length) {
      const dl = el('dl', 'evidence');
      for (const [label, value] of items) dl.append(el('dt', undefined, label), el('dd', label === 'Opinion says' ? 'passage' : undefined, value));
      box.append(dl);
    }
    const c = this.controller;
    const actions = el('div', 'actions');
    actions.append(button('Show', 'show', () => void c?.select(f.word), 'Select it in the document'));
    actions.append(button('Add comment', 'comment', () => void c?.comment(f), 'Insert a Word comment with this finding and its evidence'));
    f.fixes.forEach((fix, i) => {
      const note = fixNote(fix);
      actions.append(button(`Apply fix: ${fix.title}`, fix.preferred ? 'fix' : 'fix candidate', () => void c?.applyFix(f, i), note || undefined));
      if (note) actions.append(el('p', 'fix-why', note));
    });
    actions.append(button('Ignore', 'ignore', () => void c?.ignore(f, 'finding'), 'Hide this finding here and in your editors'));
    actions.append(button('Ignore citation', 'ignore-citation', () => void c?.ignore(f, 'citation'), 'Hide every finding on this citation'));
    box.append(actions);
    return box;
  }
}
